import { describe, expect, it } from 'vitest';
import { pipInstallOf } from './pip-line';
import { newestFirst, unconditionalRequirements } from './pip';

describe('%pip install lines', () => {
  it('reads the requirements of the usual spellings', () => {
    expect(pipInstallOf('%pip install -q torch tqdm')?.requirements.map((r) => r.name)).toEqual([
      'torch',
      'tqdm',
    ]);
    expect(pipInstallOf('!pip3 install -U "requests==2.31.0"')?.requirements).toEqual([
      { spec: 'requests==2.31.0', name: 'requests', version: '2.31.0' },
    ]);
    expect(
      pipInstallOf('  !python -m pip install rich[jupyter] attrs>=23  # c')?.requirements,
    ).toEqual([
      { spec: 'rich[jupyter]', name: 'rich', version: null },
      { spec: 'attrs>=23', name: 'attrs', version: null },
    ]);
  });

  it('reports what it cannot follow and ignores lines that are not pip install', () => {
    expect(pipInstallOf('%pip install -r requirements.txt x')).toEqual({
      requirements: [{ spec: 'x', name: 'x', version: null }],
      unsupported: ['-r requirements.txt'],
    });
    expect(pipInstallOf('%pip install git+https://github.com/a/b')?.unsupported).toEqual([
      'git+https://github.com/a/b',
    ]);
    expect(pipInstallOf('%pip list')).toBeNull();
    expect(pipInstallOf('!ls -la')).toBeNull();
  });

  it('orders releases newest first, pre-releases last', () => {
    expect(newestFirst(['1.2', '1.10', '2.0b1', '1.9.1', '0.9'])).toEqual([
      '1.10',
      '1.9.1',
      '1.2',
      '0.9',
      '2.0b1',
    ]);
  });

  it("takes Requires-Dist lines without markers from a wheel's METADATA headers", () => {
    const metadata = [
      'Metadata-Version: 2.1',
      'Name: x',
      'Requires-Dist: idna (>=2.5)',
      'Requires-Dist: charset_normalizer<4,>=2',
      'Requires-Dist: PySocks!=1.5.7 ; extra == "socks"',
      'Requires-Dist: colorama ; sys_platform == "win32"',
      '',
      'Requires-Dist: in-the-description',
    ].join('\n');
    expect(unconditionalRequirements(metadata)).toEqual(['idna', 'charset_normalizer']);
  });
});
