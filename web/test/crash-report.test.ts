import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CrashReport } from '../src/app/CrashReport';

describe('the render crash screen', () => {
  it("shows 'Alguma coisa deu errado.' and the error details", () => {
    const html = renderToStaticMarkup(createElement(CrashReport, { error: new TypeError('x is undefined') }));
    expect(html).toContain('Alguma coisa deu errado.');
    expect(html).toContain('TypeError: x is undefined');
  });
});
