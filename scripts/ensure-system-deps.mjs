// The test suites use three Debian packages: chromium (the browser suite drives it through playwright-core),
// ImageMagick (the PSD checks read exported files with `identify`) and poppler-utils (the PDF checks read exported
// files with `pdfinfo` and render them with `pdftoppm`). Install whichever is missing with apt — never a
// downloaded browser build.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const has = (command) => {
  try {
    execSync(`command -v ${command}`, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
};
const missing = [];
if (!existsSync(chromium)) missing.push('chromium');
if (!has('identify')) missing.push('imagemagick');
if (!has('pdfinfo') || !has('pdftoppm')) missing.push('poppler-utils');
if (missing.length > 0) {
  console.log(`Installing ${missing.join(', ')} with apt-get`);
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  execSync(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`,
    {
      stdio: 'inherit',
    },
  );
}
