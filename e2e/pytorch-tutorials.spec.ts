/**
 * PyTorch's "Learn the Basics" tutorials as a student pastes them into a Python notebook
 * (quickstart, buildmodel, autogradqs, optimization; the tensors one is tensorqs.test.ts): every
 * cell runs, verbatim but for the dataset and epoch sizes (fixtures/pytorch-basics.py marks
 * those lines), and prints what PyTorch prints where the printout is deterministic (real
 * PyTorch 1.13 printed the model and the gradients quoted here).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { cell, output, waitForKernelIdle } from './helpers';
import { payloadFor } from './persistence-helpers';

/** Pyodide's first load, then FashionMNIST's first read: a loaded CI machine gets time. */
const FIRST_PYTHON_CELL_MS = 90_000;

/** The fixture's cells: the text between "# %%" lines, without the file's leading comment. */
function tutorialCells(): string[] {
  const text = readFileSync(new URL('./fixtures/pytorch-basics.py', import.meta.url), 'utf8');
  return text
    .split(/^# %%.*$/m)
    .slice(1)
    .map((source) => source.trim());
}

const MODEL = `NeuralNetwork(
  (flatten): Flatten(start_dim=1, end_dim=-1)
  (linear_relu_stack): Sequential(
    (0): Linear(in_features=784, out_features=512, bias=True)
    (1): ReLU()
    (2): Linear(in_features=512, out_features=512, bias=True)
    (3): ReLU()
    (4): Linear(in_features=512, out_features=10, bias=True)
  )
)`;

const FIRST_CALL = `First call
tensor([[4., 2., 2., 2., 2.],
        [2., 4., 2., 2., 2.],
        [2., 2., 4., 2., 2.],
        [2., 2., 2., 4., 2.]])`;
const SECOND_CALL = `Second call
tensor([[8., 4., 4., 4., 4.],
        [4., 8., 4., 4., 4.],
        [4., 4., 8., 4., 4.],
        [4., 4., 4., 8., 4.]])`;

test("PyTorch's basics tutorials run in a Python notebook as written", async ({ page }) => {
  test.setTimeout(8 * 60_000);
  const sources = tutorialCells();
  const notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      gpubook: { title: 'PyTorch basics' },
    },
    cells: sources.map((source) => ({
      cell_type: 'code',
      source,
      metadata: {},
      outputs: [],
      execution_count: null,
    })),
  };
  await page.goto(`/#nb=${payloadFor(notebook)}`);
  await expect(page.getByTestId('notebook')).toBeVisible();
  await waitForKernelIdle(page);
  await page.getByTestId('run-all').click();
  await page.getByTestId('trust-run').click();

  const index = (marker: string) => sources.findIndex((s) => s.includes(marker));
  for (let i = 0; i < sources.length; i++) {
    await expect(cell(page, i)).toHaveAttribute('data-status', /^(done|error)$/, {
      timeout: i === 0 ? FIRST_PYTHON_CELL_MS : 180_000,
    });
    // On failure this names the cell and shows its traceback.
    await expect(output(page, i), `cell ${i + 1}: ${sources[i].split('\n')[0]}`).not.toContainText(
      'Traceback',
    );
    await expect(cell(page, i)).toHaveAttribute('data-status', 'done');
  }

  const texts = async (marker: string) => (await output(page, index(marker)).innerText()).trim();
  expect(await texts('print(f"Shape of X')).toBe(
    'Shape of X [N, C, H, W]: torch.Size([64, 1, 28, 28])\nShape of y: torch.Size([64]) torch.int64',
  );
  expect(await texts('model = NeuralNetwork().to(device)\nprint(model)')).toBe(
    `Using cuda device\n${MODEL}`,
  );
  const training = await texts('epochs = 2  # gpubook: size (the tutorial trains 5');
  expect(training).toMatch(/^Epoch 1\n-+\nloss: \d\.\d{6} {2}\[ {3}64\/ {2}640\]/);
  expect(training).toMatch(/Test Error: \n Accuracy: \d+\.\d%, Avg loss: \d\.\d{6}/);
  expect(training).toMatch(/Done!$/);
  expect(await texts("print(f'Predicted:")).toMatch(/^Predicted: "[^"]+", Actual: "Ankle boot"$/);
  expect(await texts('print(f"Predicted class:')).toMatch(
    /^Predicted class: tensor\(\[\d\], device='cuda:0'\)$/,
  );
  expect(await texts('for name, param in model.named_parameters()')).toContain(
    'Layer: linear_relu_stack.0.weight | Size: torch.Size([512, 784]) | Values : tensor([[',
  );
  expect(await texts('print(f"Gradient function for z')).toMatch(
    /^Gradient function for z = <AddBackward0 object at 0x[0-9a-f]+>\nGradient function for loss = <BinaryCrossEntropyWithLogitsBackward0 object at 0x[0-9a-f]+>$/,
  );
  const jacobian = await texts('inp = torch.eye(4, 5, requires_grad=True)');
  expect(jacobian).toContain(FIRST_CALL);
  expect(jacobian).toContain(SECOND_CALL);
  expect(jacobian).toMatch(/Call after zeroing gradients\ntensor\(\[\[4\., 2\./);
  expect(
    await texts('train_loop(train_dataloader, model, loss_fn, optimizer)\n    test_loop'),
  ).toMatch(/Accuracy: \d+\.\d%.*\n*Done!$/s);
});
