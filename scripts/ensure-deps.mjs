/**
 * Installs what is missing before `npm start` / `npm test`, so a newcomer's two commands work on
 * a fresh machine: npm packages when node_modules is absent or older than package.json, and with
 * `--browser` a Chromium to drive (Debian's package when running as root on Debian; otherwise a
 * message saying what to install, since browsers can't be downloaded by the test tool here).
 */
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const run = (command) => execSync(command, { stdio: 'inherit' });

const lock = existsSync('package-lock.json') ? 'package-lock.json' : 'package.json';
const stamp = 'node_modules/.package-lock.json';
if (!existsSync(stamp) || statSync(stamp).mtimeMs < statSync(lock).mtimeMs) {
  console.log('Installing npm packages…');
  // `npm ci` refuses a lockfile missing other platforms' optional packages (the registry here
  // lacks some); `npm install` then installs from the same lockfile.
  try {
    run('npm ci --no-audit --no-fund');
  } catch {
    run('npm install --no-audit --no-fund');
  }
}

if (process.argv.includes('--browser')) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (isRoot && existsSync('/usr/bin/apt-get')) {
      console.log('Installing Debian chromium for the end-to-end tests…');
      run('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium');
    } else {
      console.error(
        `No Chromium at ${chromium}. Install one (Debian: sudo apt-get install chromium) or set CHROMIUM_PATH.`,
      );
      process.exit(1);
    }
  }
  // Dawn (the `webgpu` package, for kernel tests in Node) needs the Vulkan loader.
  if (!existsSync('/usr/lib/x86_64-linux-gnu/libvulkan.so.1') && existsSync('/usr/bin/apt-get')) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (isRoot) run('DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libvulkan1');
  }
}
