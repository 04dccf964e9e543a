/**
 * torchvision.models' small classics, untrained: parameter counts against torchvision's published
 * numbers (torchvision is not installed here, so it cannot be a peer: resnet18 11,689,512,
 * mobilenet_v2 3,504,872, vgg11 132,863,336 of which the convolutional features are 9,220,480),
 * state-dict keys as torchvision names them, output shapes on the CPU backend and on WebGPU, and
 * the clear error for pretrained weights.
 */
import { describe, expect, it } from 'vitest';
import { testDevices } from '../../engine/testing/devices';
import { startPython } from './testing/pyodide';

const devices = (await testDevices()).map((d) => (d.kind === 'gpu' ? 'cuda:0' : 'cpu'));
const python = await startPython();
// The larger forward runs on the last test device: WebGPU where there is one.
const gpu = devices[devices.length - 1];

describe('torchvision.models', () => {
  it('resnet18: torchvision parameter count and state-dict keys; [N, 1000] logits on the cpu', async () => {
    const r = (await python.run(`
import torch
from torchvision import models
torch.manual_seed(0)
m = models.resnet18()
keys = list(m.state_dict().keys())
y = m(torch.rand(2, 3, 32, 32))
m.eval()
one = m(torch.rand(1, 3, 32, 32))
{"params": sum(p.numel() for p in m.parameters()), "nkeys": len(keys), "keys": keys[:7] + keys[-2:],
 "shapes": [list(y.shape), list(one.shape)], "bn_weight": m.layer1[0].bn1.weight.tolist()[:3]}
`)) as Record<string, unknown>;
    expect(r.params).toBe(11689512);
    // 20 convolutions, 20 batch norms (weight, bias and 3 buffers each), fc weight and bias.
    expect(r.nkeys).toBe(122);
    expect(r.keys).toEqual([
      'conv1.weight',
      'bn1.weight',
      'bn1.bias',
      'bn1.running_mean',
      'bn1.running_var',
      'bn1.num_batches_tracked',
      'layer1.0.conv1.weight',
      'fc.weight',
      'fc.bias',
    ]);
    expect(r.shapes).toEqual([
      [2, 1000],
      [1, 1000],
    ]);
    expect(r.bn_weight).toEqual([1, 1, 1]);
  });

  it(`mobilenet_v2: torchvision parameter count; its depthwise convolutions run on ${gpu}`, async () => {
    const r = (await python.run(`
import torch
from torchvision import models
m = models.mobilenet_v2(num_classes=10)
full = sum(p.numel() for p in m.parameters()) - (1280 * 10 + 10) + (1280 * 1000 + 1000)
m = m.to("${gpu}")
y = m(torch.rand(2, 3, 32, 32, device="${gpu}"))
dw = m.features[1].conv[0][0]
{"params": full, "shape": list(y.shape), "device": str(y.device), "groups": dw.groups, "repr": repr(dw)}
`)) as Record<string, unknown>;
    expect(r.params).toBe(3504872);
    expect(r.shape).toEqual([2, 10]);
    expect(r.device).toBe(gpu);
    expect(r.groups).toBe(32);
    expect(r.repr).toBe(
      'Conv2d(32, 32, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), groups=32, bias=False)',
    );
  });

  it('vgg11: the features count torchvision publishes; weights= says they cannot be downloaded', async () => {
    const r = (await python.run(`
from torchvision import models
from torchvision.models import ResNet18_Weights
features = models.vgg.make_layers(models.vgg.cfgs["A"])
errors = []
for build in (lambda: models.resnet18(weights=ResNet18_Weights.DEFAULT), lambda: models.vgg11(weights="IMAGENET1K_V1"),
              lambda: models.mobilenet_v2(pretrained=True)):
    try:
        build()
    except RuntimeError as e:
        errors.append(str(e))
{"features": sum(p.numel() for p in features.parameters()), "errors": errors, "first": repr(features[0])}
`)) as { features: number; errors: string[]; first: string };
    expect(r.features).toBe(9220480);
    // The classifier: 512·7·7 → 4096 → 4096 → 1000, so vgg11 has torchvision's 132,863,336.
    expect(r.features + (25088 * 4096 + 4096) + (4096 * 4096 + 4096) + (4096 * 1000 + 1000)).toBe(
      132863336,
    );
    expect(r.errors).toHaveLength(3);
    expect(r.errors[0]).toMatch(
      /^resnet18\(weights=ResNet18_Weights.DEFAULT\): pretrained weights cannot be downloaded here/,
    );
    expect(r.errors[1]).toMatch(/^vgg11\(weights=IMAGENET1K_V1\)/);
    expect(r.errors[2]).toMatch(/^mobilenet_v2\(pretrained=True\).*weights=None/);
    expect(r.first).toBe('Conv2d(3, 64, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))');
  });
});
