// Screenshots of HTML snippets in headless Chromium, math typeset by KaTeX (the npm package).
//
//   node shots.mjs <jobs.json> <results.json>
//
// jobs.json: [{id, out, html, math: [{latex, display}], style, page_background, scale, width}].
// Each `@@MATH<n>@@` in html is replaced by KaTeX's HTML for math[n] (KaTeX throws on what it
// cannot typeset: the job fails and is reported, nothing is drawn). The snippet is laid in a
// `div` with `style` on a page of `page_background` ("transparent" gives an RGBA PNG), shown at
// device scale factor `scale`, and the div alone is captured. results.json: {id: "ok" | error}.
import fs from 'fs';
import path from 'path';
import { createRequire } from 'module';
import katex from 'katex';
import puppeteer from 'puppeteer-core';

const require = createRequire(import.meta.url);
const [jobsPath, resultsPath] = process.argv.slice(2);
const jobs = JSON.parse(fs.readFileSync(jobsPath, 'utf8'));
const css = require.resolve('katex/dist/katex.min.css');
const base = path.join(path.dirname(resultsPath), 'shots-base.html');
// A file:// page, so that the stylesheet and its fonts load from the package folder.
fs.writeFileSync(base, `<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="file://${css}"></head><body style="margin:0"></body></html>`);

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
});
const results = {};
try {
  const page = await browser.newPage();
  await page.goto(`file://${base}`);
  for (const job of jobs) {
    try {
      const math = job.math.map((m) => katex.renderToString(m.latex, {
        displayMode: m.display, throwOnError: true, output: 'html', strict: 'ignore' }));
      const html = job.html.replace(/@@MATH(\d+)@@/g, (_, n) => math[Number(n)]);
      await page.setViewport({ width: job.width, height: 800, deviceScaleFactor: job.scale });
      await page.evaluate((background, style, inner) => {
        document.body.style.background = background;
        document.body.innerHTML = `<div id="shot" style="${style}">${inner}</div>`;
      }, job.page_background, job.style, html);
      await page.evaluate(async () => { await document.fonts.ready; });
      const element = await page.$('#shot');
      await element.screenshot({ path: job.out,
                                 omitBackground: job.page_background === 'transparent' });
      results[job.id] = 'ok';
    } catch (error) {
      results[job.id] = String(error.message || error).split('\n')[0];
    }
  }
} finally {
  await browser.close();
}
fs.writeFileSync(resultsPath, JSON.stringify(results));
