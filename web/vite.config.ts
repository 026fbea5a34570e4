import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const THEME_COLOR = '#1565c0';

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'generateSW',
      // A technician may be mid-form when a new version lands: ask, never reload on our own.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['apple-touch-icon.png'],
      manifest: {
        name: 'Novus',
        short_name: 'Novus',
        description: 'Levantamento de campo offline',
        lang: 'pt-BR',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: THEME_COLOR,
        background_color: '#ffffff',
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // icons and the manifest are added by includeAssets and the manifest itself; the .wasm is the barcode
        // reader (ZXing, 1.1 MB, under maximumFileSizeToCacheInBytes), so the scan buttons work offline
        globPatterns: ['**/*.{js,css,html,wasm}'],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api(\/|$)/],
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        // Map tiles ({z}/{x}/{y} images) come from the cache 'Download do Mapa' fills, so the map draws offline.
        // The cache name is offline/tiles.ts TILE_CACHE; the pattern knows no host, since tile URLs are configuration.
        runtimeCaching: [
          // A project's basemap package (issue 23): raster tiles come as images, vector ones by fetch(), all with
          // `?v=` (the archive's version), cached under these very URLs by 'Download do Mapa'.
          {
            urlPattern: ({ url }) =>
              url.origin === self.location.origin &&
              /^\/api\/projeto\/[^/]+\/mapa-base\/\d+\/\d+\/\d+$/.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'novus-tiles',
              expiration: { maxAgeSeconds: 31536000 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: ({ request, url }) =>
              request.destination === 'image' &&
              /\/\d+\/\d+\/\d+(@2x)?(\.(png|jpe?g|webp))?$/.test(url.pathname),
            handler: 'CacheFirst',
            options: {
              cacheName: 'novus-tiles',
              expiration: { maxAgeSeconds: 31536000 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
  ],
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:3000',
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
