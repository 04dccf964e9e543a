/**
 * PyTorch's "Learn the Basics" tutorials as a student pastes them into a Python notebook
 * (quickstart, buildmodel, autogradqs, optimization; the tensors one is tensorqs.test.ts): every
 * cell runs, verbatim but for the dataset and epoch sizes (fixtures/pytorch-basics.py marks
 * those lines), and prints what PyTorch prints where the printout is deterministic (real
 * PyTorch 1.13 printed the model and the gradients quoted here).
 */
import { expect, test } from '@playwright/test';
import { fixtureCells, runTutorialNotebook } from './tutorial-notebook';

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
  const sources = fixtureCells('pytorch-basics.py');
  const outputOf = await runTutorialNotebook(page, sources, 'PyTorch basics', 180_000);

  const texts = async (marker: string) => (await outputOf(marker).innerText()).trim();
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
