/**
 * Installs what is missing before `npm start` / `npm test`, so a newcomer's two commands work on
 * a fresh machine: npm packages (`npm ci`) when node_modules is absent or older than the lockfile;
 * from Debian (as root on Debian) the Fashion-MNIST files that scripts/build-data.mjs bundles (both
 * commands build the data), and with `--browser` what the tests need: a Chromium to drive, the
 * Vulkan loader for Dawn, real PyTorch to compare with, Jupyter's nbformat to validate exports
 * with, and numpy, matplotlib and pandas for the Python glue's CPython tests; elsewhere a message
 * saying what to install, since browsers can't be downloaded by the test tool here.
 */
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const run = (command) => execSync(command, { stdio: 'inherit' });

const lock = existsSync('package-lock.json') ? 'package-lock.json' : 'package.json';
const stamp = 'node_modules/.package-lock.json';
if (!existsSync(stamp) || statSync(stamp).mtimeMs < statSync(lock).mtimeMs) {
  console.log('Installing npm packages…');
  // Exactly what the lockfile says: `npm ci` fails (and so does CI) rather than rewrite it.
  run('npm ci --no-audit --no-fund');
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const debian = isRoot && existsSync('/usr/bin/apt-get');
/** Debian packages to install: the data the build needs, and with --browser the tests' peers. */
const missing = [];
// The original Fashion-MNIST IDX files, which scripts/build-data.mjs regroups into public/data/.
const fashionMnist = '/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz';
if (!existsSync(fashionMnist)) missing.push('dataset-fashion-mnist');

const browser = process.argv.includes('--browser');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (browser) {
  if (!existsSync(chromium)) missing.push('chromium');
  // Dawn (the `webgpu` package, for kernel tests in Node) needs the Vulkan loader.
  if (!existsSync('/usr/lib/x86_64-linux-gnu/libvulkan.so.1')) missing.push('libvulkan1');
  // Real PyTorch (1.13, CPU): the Python faces' tests compare numbers and printouts with it.
  if (!hasRealTorch()) missing.push('python3-torch');
  // Jupyter's own validator: exported notebooks must pass nbformat.validate.
  if (!hasPythonModule('nbformat')) missing.push('python3-nbformat');
  // The Python glue tests under CPython (IPython's display protocol with a real DataFrame, …).
  for (const [module, pkg] of [
    ['numpy', 'python3-numpy'],
    ['matplotlib', 'python3-matplotlib'],
    ['pandas', 'python3-pandas'],
  ]) {
    if (!hasPythonModule(module)) missing.push(pkg);
  }
}

if (missing.length > 0 && debian) {
  console.log(`Installing Debian packages: ${missing.join(', ')}…`);
  run(
    `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`,
  );
} else {
  if (missing.includes('dataset-fashion-mnist')) {
    console.error(
      `No Fashion-MNIST at ${fashionMnist}: the bundled data is built from Debian's ` +
        'dataset-fashion-mnist package. Install it (Debian: sudo apt-get install ' +
        'dataset-fashion-mnist), or see docs/datasets.md for the files to put there.',
    );
    process.exit(1);
  }
  if (browser && !existsSync(chromium)) {
    console.error(
      `No Chromium at ${chromium}. Install one (Debian: sudo apt-get install chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  if (missing.includes('python3-torch')) {
    console.warn(
      'No PyTorch at /usr/bin/python3: the tests that compare with it will say so and skip.',
    );
  }
  if (missing.includes('python3-pandas')) {
    console.warn(
      'No pandas at /usr/bin/python3: the CPython display test of a DataFrame will say so and skip.',
    );
  }
  if (missing.includes('python3-nbformat')) {
    console.warn(
      'No nbformat at /usr/bin/python3: the tests that validate exports will say so and skip.',
    );
  }
}

function hasPythonModule(name) {
  try {
    execFileSync('/usr/bin/python3', ['-c', `import ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function hasRealTorch() {
  try {
    // The tests' own probe: with no script, the runner imports torch and prints its version.
    const runner = new URL('../src/api/python/testing/real_torch_runner.py', import.meta.url);
    execFileSync('/usr/bin/python3', [fileURLToPath(runner)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
