/**
 * The Python `torch.Tensor`: operators, indexing, reading values and PyTorch's printouts, on the
 * cpu and on WebGPU (Dawn/SwiftShader). Values are random (never zeros) and checked against an
 * independent computation in TypeScript over the inputs Python read back; printouts are checked
 * against real PyTorch printing the same values.
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { startPython } from './testing/pyodide';
import { realTorchMissing, runRealTorch } from './testing/real-torch';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();
const noTorch = realTorchMissing();

type M = number[][];
const map2 = <T = number>(a: M, f: (v: number, i: number, j: number) => T): T[][] =>
  a.map((row, i) => row.map((v, j) => f(v, i, j)));
const matmul = (a: M, b: M): M =>
  a.map((row) => b[0].map((_, j) => row.reduce((s, v, k) => s + v * b[k][j], 0)));

function expectClose(actual: unknown, expected: unknown, tol = 1e-5): void {
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual)).toBe(true);
    const a = actual as unknown[];
    expect(a.length).toBe(expected.length);
    expected.forEach((e, i) => expectClose(a[i], e, tol));
  } else if (typeof expected === 'number') {
    expect(typeof actual).toBe('number');
    expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(
      tol * Math.max(1, Math.abs(expected)),
    );
  } else expect(actual).toEqual(expected);
}

describe.each(devices)('Python tensors on %s', (device) => {
  it('operators with tensors and numbers on either side', async () => {
    const r = (await python.run(`
import torch
dev = torch.device(${JSON.stringify(device)})
a = torch.rand(3, 4, device=dev) + 0.5
b = torch.rand((3, 4), device=dev) + 0.5
c = torch.rand(4, 2, device=dev) - 0.5
s = 1.75
{
  'a': a.tolist(), 'b': b.tolist(), 'c': c.tolist(),
  'add': (a + b).tolist(), 'sub': (a - b).tolist(), 'mul': (a * b).tolist(),
  'div': (a / b).tolist(), 'pow': (a ** 2).tolist(), 'neg': (-a).tolist(),
  'radd': (s + a).tolist(), 'rsub': (s - a).tolist(), 'rmul': (s * a).tolist(),
  'rdiv': (s / a).tolist(), 'rpow': (s ** a).tolist(), 'matmul': (a @ c).tolist(),
  'gt': (a > b).tolist(), 'le_num': (a <= 1.0).tolist(), 'rgt': (1.0 < a).tolist(),
  'abs': abs(c).tolist(), 'sum1': a.sum(1).tolist(), 'mean': a.mean().item(),
  'max': a.max().item(), 'argmax1': a.argmax(dim=1).tolist(),
}
`)) as Record<string, unknown>;
    const a = r.a as M;
    const b = r.b as M;
    const c = r.c as M;
    const s = 1.75;
    for (const row of [...a, ...b]) for (const v of row) expect(v).toBeGreaterThanOrEqual(0.5);
    expectClose(
      r.add,
      map2(a, (v, i, j) => v + b[i][j]),
    );
    expectClose(
      r.sub,
      map2(a, (v, i, j) => v - b[i][j]),
    );
    expectClose(
      r.mul,
      map2(a, (v, i, j) => v * b[i][j]),
    );
    expectClose(
      r.div,
      map2(a, (v, i, j) => v / b[i][j]),
    );
    expectClose(
      r.pow,
      map2(a, (v) => v * v),
    );
    expectClose(
      r.neg,
      map2(a, (v) => -v),
    );
    expectClose(
      r.radd,
      map2(a, (v) => s + v),
    );
    expectClose(
      r.rsub,
      map2(a, (v) => s - v),
    );
    expectClose(
      r.rmul,
      map2(a, (v) => s * v),
    );
    expectClose(
      r.rdiv,
      map2(a, (v) => s / v),
    );
    expectClose(
      r.rpow,
      map2(a, (v) => s ** v),
    );
    expectClose(r.matmul, matmul(a, c));
    expect(r.gt).toEqual(map2(a, (v, i, j) => v > b[i][j]));
    expect(r.le_num).toEqual(map2(a, (v) => v <= 1.0));
    expect(r.rgt).toEqual(map2(a, (v) => 1.0 < v));
    expectClose(
      r.abs,
      map2(c, (v) => Math.abs(v)),
    );
    expectClose(
      r.sum1,
      a.map((row) => row.reduce((x, y) => x + y, 0)),
    );
    expectClose(r.mean, a.flat().reduce((x, y) => x + y, 0) / 12);
    expectClose(r.max, Math.max(...a.flat()));
    expect(r.argmax1).toEqual(a.map((row) => row.indexOf(Math.max(...row))));
  });

  it('operators with plain operands call the engine once each and agree with the general path', async () => {
    // Counts the calls of the one-crossing path (_gpubook.tensorOp/tensorOpFor, torch/_tensor.py) while the
    // same operators also run the general way (Tensor._op); values, dtypes and errors must agree.
    const r = (await python.run(`
import torch
import torch._tensor as T
dev = torch.device(${JSON.stringify(device)})
a = torch.rand(3, 4, device=dev) - 0.5
b = torch.rand(3, 4, device=dev) - 0.5
i = (torch.rand(3, 4, device=dev) * 9).int()
bt = b.T
calls = []
_real, _real_ops = T._tensor_op, dict(T._ENGINE_OPS)
T._tensor_op = lambda *args: calls.append(args[1]) or _real(*args)
for _name, _fn in _real_ops.items():
    T._ENGINE_OPS[_name] = lambda *args, _name=_name, _fn=_fn: calls.append(_name) or _fn(*args)
def _err(f):
    try:
        f()
    except Exception as e:
        return [type(e).__name__, str(e)]
try:
    fast = [a + b, i * 3, i / 2, a < b, -a, a @ bt, 2.5 + a, i == 4, abs(a)]
    fast_calls = list(calls)
    general = [a._op("add", b), i._op("mul", 3), i._op("div", 2), a._cmp("lt", b), a._op("neg"),
               a._op("matmul", bt), a._op("add", 2.5), i._cmp("eq", 4), a._op("abs")]
    general_calls = len(calls) - len(fast_calls)
    errors = [_err(lambda: a @ a), _err(lambda: a._op("matmul", a))]
finally:
    T._tensor_op = _real
    T._ENGINE_OPS.update(_real_ops)
{
  'a': a.tolist(), 'b': b.tolist(), 'i': i.tolist(),
  'fast': [t.tolist() for t in fast], 'general': [t.tolist() for t in general],
  'fast_dtypes': [str(t.dtype) for t in fast], 'general_dtypes': [str(t.dtype) for t in general],
  'fast_calls': fast_calls, 'general_calls': general_calls,
  'errors': errors,
}
`)) as Record<string, unknown>;
    expect(r.fast_calls).toEqual(['add', 'mul', 'div', 'lt', 'neg', 'matmul', 'add', 'eq', 'abs']);
    expect(r.general_calls).toBe(0);
    expect(r.fast_dtypes).toEqual(r.general_dtypes);
    expect(r.fast_dtypes).toEqual([
      'torch.float32',
      'torch.int64',
      'torch.float32',
      'torch.bool',
      'torch.float32',
      'torch.float32',
      'torch.float32',
      'torch.bool',
      'torch.float32',
    ]);
    expect(r.fast).toEqual(r.general);
    const a = r.a as M;
    const b = r.b as M;
    const i = r.i as M;
    const [add, mul3, div2, lt, , mm] = r.fast as M[];
    expectClose(
      add,
      map2(a, (v, x, y) => v + b[x][y]),
    );
    expect(mul3).toEqual(map2(i, (v) => v * 3));
    expectClose(
      div2,
      map2(i, (v) => v / 2),
    );
    expect(lt).toEqual(map2(a, (v, x, y) => v < b[x][y]));
    const bT = b[0].map((_, j) => b.map((row) => row[j]));
    expectClose(mm, matmul(a, bT));
    const [fastError, generalError] = r.errors as [string, string][];
    expect(fastError[0]).toBe('RuntimeError');
    expect(fastError).toEqual(generalError);
  });

  it("API.md's tensor functions and members under their PyTorch names", async () => {
    const r = (await python.run(`
import torch
t = torch.rand(2, 3, device=${JSON.stringify(device)}) + 0.5
values, indices = t.max(1)
{
  't': t.tolist(), 'exp': t.exp().tolist(), 'log': torch.log(t).tolist(), 'sqrt': t.sqrt().tolist(),
  'sigmoid': t.sigmoid().tolist(), 'tanh': torch.tanh(t).tolist(), 'relu': (t - 1).relu().tolist(),
  'sum_keep': t.sum(dim=1, keepdim=True).tolist(), 'mean0': t.mean(0).tolist(),
  'max_values': values.tolist(), 'max_indices': indices.tolist(), 'tt': t.t().tolist(),
  'view': t.view(3, 2).tolist(), 'reshape': t.reshape(-1).tolist(),
  'unsq': list(t.unsqueeze(0).shape), 'sq': list(t.unsqueeze(0).squeeze(0).shape),
  'softmax': torch.softmax(t, dim=1).tolist(), 'mm': torch.matmul(t, t.t()).tolist(),
  'argmax': torch.argmax(t, dim=1).tolist(), 'zeros_like': torch.zeros_like(t).tolist(),
  'full': torch.full((2, 2), 1.5).tolist(), 'arange': torch.arange(0, 5, 2).tolist(),
  'cat': list(torch.cat([t, t], dim=0).shape), 'stack': list(torch.stack([t, t]).shape),
  'clamp': t.clamp(0.7, 1.2).tolist(), 'randn_like': list(torch.randn_like(t).shape),
  'normal': list(torch.normal(0.0, 2.0, size=(4, 1)).shape), 'numel': t.numel(),
}
`)) as Record<string, unknown>;
    const t = r.t as M;
    const rows = (f: (row: number[]) => number[]) => t.map(f);
    expectClose(r.exp, map2(t, Math.exp));
    expectClose(r.log, map2(t, Math.log));
    expectClose(r.sqrt, map2(t, Math.sqrt));
    expectClose(
      r.sigmoid,
      map2(t, (v) => 1 / (1 + Math.exp(-v))),
    );
    expectClose(r.tanh, map2(t, Math.tanh));
    expectClose(
      r.relu,
      map2(t, (v) => Math.max(0, v - 1)),
    );
    expectClose(
      r.sum_keep,
      rows((row) => [row.reduce((a, b) => a + b, 0)]),
    );
    expectClose(
      r.mean0,
      t[0].map((v, j) => (v + t[1][j]) / 2),
    );
    expectClose(r.max_values, rows((row) => [Math.max(...row)]).flat());
    expect(r.max_indices).toEqual(t.map((row) => row.indexOf(Math.max(...row))));
    expect(r.argmax).toEqual(r.max_indices);
    expectClose(
      r.tt,
      [0, 1, 2].map((j) => [t[0][j], t[1][j]]),
    );
    expectClose(r.view, [t.flat().slice(0, 2), t.flat().slice(2, 4), t.flat().slice(4, 6)]);
    expectClose(r.reshape, t.flat());
    expect(r.unsq).toEqual([1, 2, 3]);
    expect(r.sq).toEqual([2, 3]);
    expectClose(
      r.softmax,
      rows((row) => {
        const e = row.map(Math.exp);
        const z = e.reduce((a, b) => a + b, 0);
        return e.map((v) => v / z);
      }),
    );
    expectClose(
      r.mm,
      matmul(
        t,
        [0, 1, 2].map((j) => [t[0][j], t[1][j]]),
      ),
    );
    expect(r.zeros_like).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(r.full).toEqual([
      [1.5, 1.5],
      [1.5, 1.5],
    ]);
    expect(r.arange).toEqual([0, 2, 4]);
    expect(r.cat).toEqual([4, 3]);
    expect(r.stack).toEqual([2, 2, 3]);
    expectClose(
      r.clamp,
      map2(t, (v) => Math.min(1.2, Math.max(0.7, v))),
    );
    expect(r.randn_like).toEqual([2, 3]);
    expect(r.normal).toEqual([4, 1]);
    expect(r.numel).toBe(6);
  });

  it('indexing, len, iteration, item and tolist', async () => {
    const r = (await python.run(`
import torch
t = torch.rand(4, 3, device=${JSON.stringify(device)}) + 0.25
mask = t > 0.75
{
  't': t.tolist(), 'row': t[1].tolist(), 'col': t[:, 1].tolist(), 'last': t[-1].tolist(),
  'block': t[1:3, ::2].tolist(), 'ell': t[..., 0].tolist(), 'none': list(t[None].shape),
  'elem': t[2, 1].item(), 'masked': t[mask].tolist(), 'rows': t[[0, 2]].tolist(),
  'len': len(t), 'iter': [r.tolist() for r in t], 'mask_len': len(t[mask]),
  'int_item': torch.tensor([[3, 4]])[0, 1].item(), 'item_type': type(t[0, 0].item()).__name__,
  'int_type': type(torch.tensor([7]).item()).__name__, 'shape_type': type(t.shape).__name__,
  'shape_tuple': t.shape == (4, 3), 'size1': t.size(1),
}
`)) as Record<string, unknown>;
    const t = r.t as M;
    expectClose(r.row, t[1]);
    expectClose(
      r.col,
      t.map((row) => row[1]),
    );
    expectClose(r.last, t[3]);
    expectClose(r.block, [
      [t[1][0], t[1][2]],
      [t[2][0], t[2][2]],
    ]);
    expectClose(
      r.ell,
      t.map((row) => row[0]),
    );
    expect(r.none).toEqual([1, 4, 3]);
    expectClose(r.elem, t[2][1]);
    expectClose(
      r.masked,
      t.flat().filter((v) => v > 0.75),
    );
    expect(r.mask_len).toBe(t.flat().filter((v) => v > 0.75).length);
    expectClose(r.rows, [t[0], t[2]]);
    expect(r.len).toBe(4);
    expectClose(r.iter, t);
    expect(r.int_item).toBe(4);
    expect(r.item_type).toBe('float');
    expect(r.int_type).toBe('int');
    expect(r.shape_type).toBe('Size');
    expect(r.shape_tuple).toBe(true);
    expect(r.size1).toBe(3);
  });

  it('autograd: backward, grad, requires_grad, detach and no_grad', async () => {
    const r = (await python.run(`
import torch
x = torch.rand(3, device=${JSON.stringify(device)}) + 0.5
w = x.clone().requires_grad_()
y = (w * w * 3.0 + w).sum()
y.backward()
with torch.no_grad():
    z = w * 2
@torch.no_grad()
def double(t):
    return t * 2
{
  'x': x.tolist(), 'grad': w.grad.tolist(), 'leaf': w.is_leaf, 'y_leaf': y.is_leaf,
  'rg': w.requires_grad, 'z_rg': z.requires_grad, 'dec_rg': double(w).requires_grad,
  'detached_rg': w.detach().requires_grad, 'enabled': torch.is_grad_enabled(),
  'grad_fn': type(y.grad_fn).__name__ != 'NoneType',
}
`)) as Record<string, unknown>;
    const x = r.x as number[];
    expectClose(
      r.grad,
      x.map((v) => 6 * v + 1),
    );
    expect(r.leaf).toBe(true);
    expect(r.y_leaf).toBe(false);
    expect(r.rg).toBe(true);
    expect(r.z_rg).toBe(false);
    expect(r.dec_rg).toBe(false);
    expect(r.detached_rg).toBe(false);
    expect(r.enabled).toBe(true);
    expect(r.grad_fn).toBe(true);
  });

  it('devices, dtypes and Size print as in PyTorch', async () => {
    const r = (await python.run(`
import torch
t = torch.rand(2, 3, device=${JSON.stringify(device)})
i = torch.tensor([1, 2])
[str(t.device), repr(t.shape), str(t.dtype), str(i.dtype), t.is_cuda,
 str(t.cpu().device), repr(torch.device('cuda:0')), str(torch.device('cuda', 1)),
 str(torch.tensor([1.0], dtype=torch.int64).dtype), str(torch.zeros(2, dtype=torch.float64).dtype),
 str(t.to('cpu').device), str(i.float().dtype), str((i > 1).dtype)]
`)) as unknown[];
    const gpu = device !== 'cpu';
    expect(r).toEqual([
      gpu ? 'cuda:0' : 'cpu',
      'torch.Size([2, 3])',
      'torch.float32',
      'torch.int64',
      gpu,
      'cpu',
      "device(type='cuda', index=0)",
      'cuda:1',
      'torch.int64',
      // The engine stores float64 as float32 (see _types.py).
      'torch.float32',
      'cpu',
      'torch.float32',
      'torch.bool',
    ]);
  });

  it.skipIf(noTorch !== null)(
    'repr(t) is what real PyTorch prints for the same values',
    async () => {
      const cases = [
        'torch.tensor(V, device=D)',
        'torch.tensor(V, device=D).sum(1)',
        'torch.tensor(V, device=D) * 1000',
        'torch.tensor(V, device=D) / 1000',
        'torch.tensor(V, device=D)[0, 0]',
        'torch.tensor(V, device=D) > 0.5',
        'torch.tensor([[3, -12], [7, 100]], device=D)',
        'torch.tensor(V, device=D, requires_grad=True)',
        'torch.tensor(V, device=D, requires_grad=True) + 1',
        'torch.tensor(V, device=D, requires_grad=True) * 2',
        'torch.tensor(V, device=D).reshape(-1)',
        'torch.tensor(V, device=D).shape',
        'torch.tensor(V, device=D) * 1e-5',
        'torch.tensor([1, 2, 7], device=D) // 2',
        'torch.tensor([1, 2, 7], device=D) % 3',
        'torch.tensor([1, 2, 7], device=D) ** 2',
        '2 ** torch.tensor([1, 2, 7], device=D)',
        'torch.tensor([1, 2, 7], device=D) / 2',
        'torch.tensor([1, 2, 7], device=D) * 1.5',
        'torch.tensor(V, device=D) // 0.25',
        'torch.tensor(V, device=D) % 0.3',
        'torch.tensor(V, device=D) * 1e9',
        'torch.arange(2000, device=D).reshape(40, 50) / 7',
        'torch.arange(3000, device=D).reshape(3, 1000)',
        'torch.tensor([[1.0, -2.0], [3.0, 4.0]], device=D)',
        'torch.tensor([], device=D)',
        'torch.tensor(2.5, device=D)',
        'torch.tensor([True, False, True], device=D)',
      ];
      const values = (await python.run(`
import torch
(torch.rand(3, 4) + 0.01).tolist()
`)) as M;
      const ours = (await python.run(`
import torch
V = ${JSON.stringify(values)}
D = ${JSON.stringify(device)}
[repr(eval(c)) for c in ${JSON.stringify(cases)}]
`)) as string[];
      const theirs = runRealTorch(
        `V = INPUT['V']\nD = 'cpu'\nprint(json.dumps([repr(eval(c)) for c in INPUT['cases']]))`,
        { V: values, cases },
      ) as string[];
      const onDevice = (text: string): string => {
        if (device === 'cpu' || text.startsWith('torch.Size')) return text;
        const at = text.search(/, (grad_fn|requires_grad)=|\)$/);
        return `${text.slice(0, at)}, device='cuda:0'${text.slice(at)}`;
      };
      expect(ours).toEqual(theirs.map(onDevice));
    },
  );
});
