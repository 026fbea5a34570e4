// Placeholder until the vector layer lands (issue 23): draws nothing.
import type { VectorBasemapProps } from './index';

export default function VectorBasemapLayer(_props: VectorBasemapProps) {
  return null;
}
