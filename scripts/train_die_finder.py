"""Trains the die finder on crops cut by scripts/train-die-finder.ts.

    /usr/bin/python3 scripts/train_die_finder.py WORK_DIR OUT_FILE EPOCHS [SEED]

Reads WORK_DIR/crops.bin (uint8, N x SIDE x SIDE x 3, BGR) and WORK_DIR/dice.json
({"side": SIDE, "crops": [[[cx, cy, w, h, sized], ...], ...]}: each die's box in its crop,
`sized` 0 where the box does not give the die's size, as matteop65's boxes of 1s hug the pip),
trains a small fully convolutional network that marks die centres on a grid of STRIDE pixels (computed at twice that stride,
each cell's four sub-cells as channels)
(CenterNet: a heat map, the centre's offset in its cell and the box's log size), and writes it
as ONNX at opset 11, which OpenCV 4.6's dnn module reads. Also writes WORK_DIR/check.bin: the
network's output on the first crops, which the caller compares with OpenCV's.
Debian's python3-torch; seeded and single-threaded, so the same crops give the same file.
"""
import json
import os
import sys

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

STRIDE = 4  # pixels per cell of the heat map the network is trained on
SHUFFLE = 2  # the network computes at STRIDE * SHUFFLE and gives each cell's SHUFFLE x SHUFFLE sub-cells as channels
WIDTH = 32  # channels of the blocks
# Dilations of the residual blocks: the field of view grows to about 140 px, two of the largest dice the finder is shown.
DILATIONS = (1, 2, 4, 1)
OUTPUTS = 5  # per cell: heat (logit), offset x, offset y (cells), log width, log height (cells)
CHECK = 8
SEED = 7
BATCH = 32


def conv_bn(cin: int, cout: int, k: int = 3, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, dilation * (k // 2), dilation, bias=False), nn.BatchNorm2d(cout))


class Block(nn.Module):
    """A dilated 3x3 convolution with a residual: plain convolutions run several times faster per operation than depthwise ones in OpenCV's dnn."""

    def __init__(self, c: int, dilation: int):
        super().__init__()
        self.conv = conv_bn(c, c, 3, 1, dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.conv(x))


class Finder(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.ModuleList([conv_bn(3, 8, 3, 2), conv_bn(8, 16, 3, 2), conv_bn(16, WIDTH, 3, 2)])
        self.blocks = nn.Sequential(*[Block(WIDTH, d) for d in DILATIONS])
        self.head = nn.Conv2d(WIDTH, OUTPUTS * SHUFFLE * SHUFFLE, 1)
        # Start the heat map near "no die" (CenterNet's prior): most cells hold none.
        with torch.no_grad():
            self.head.bias.view(OUTPUTS, SHUFFLE * SHUFFLE)[0].fill_(-4.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # Input: BGR bytes as floats 0-255, scaled here so the reader passes the image as it is.
        x = x * (1 / 128.0) - 1.0
        for down in self.down:
            x = F.relu(down(x))
        # Channel k * SHUFFLE^2 + i * SHUFFLE + j is output k of sub-cell (row i, column j): torch's pixel_shuffle order.
        return self.head(self.blocks(x))


def fold(model: nn.Module) -> nn.Module:
    """Every batch normalisation folded into the convolution before it, for export."""
    for module in model.modules():
        for name, child in list(module.named_children()):
            if isinstance(child, nn.Sequential) and len(child) == 2 and isinstance(child[0], nn.Conv2d) and isinstance(child[1], nn.BatchNorm2d):
                conv, bn = child[0], child[1]
                scale = bn.weight.detach() / torch.sqrt(bn.running_var + bn.eps)
                folded = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride, conv.padding, conv.dilation, bias=True)
                folded.weight.data = conv.weight.detach() * scale.reshape(-1, 1, 1, 1)
                folded.bias.data = bn.bias.detach() - bn.running_mean * scale
                setattr(module, name, folded)
    return model


def targets(boxes: list, side: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heat map (Gaussian at each centre), regression targets and their weights, on the output grid."""
    cells = side // STRIDE
    heat = np.zeros((cells, cells), np.float32)
    reg = np.zeros((4, cells, cells), np.float32)
    weight = np.zeros((2, cells, cells), np.float32)  # offset weight, size weight
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for cx, cy, w, h, sized in boxes:
        gx, gy = cx / STRIDE, cy / STRIDE
        if not (0 <= gx < cells and 0 <= gy < cells):
            continue
        sigma = max(0.6, min(w, h) / STRIDE / 6)
        heat = np.maximum(heat, np.exp(-((xs - gx + 0.5) ** 2 + (ys - gy + 0.5) ** 2) / (2 * sigma * sigma)))
        ix, iy = int(gx), int(gy)
        heat[iy, ix] = 1.0
        reg[0, iy, ix] = gx - ix
        reg[1, iy, ix] = gy - iy
        weight[0, iy, ix] = 1.0
        if sized:
            reg[2, iy, ix] = np.log(max(w, 1.0) / STRIDE)
            reg[3, iy, ix] = np.log(max(h, 1.0) / STRIDE)
            weight[1, iy, ix] = 1.0
    return heat, reg, weight


def focal(logits: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on the heat map, per centre."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    centres = heat.eq(1).float()
    pos = -torch.log(p) * (1 - p) ** 2 * centres
    neg = -torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * (1 - centres)
    return (pos.sum() + neg.sum()) / centres.sum().clamp(min=1)


def augment(x: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """Exposure, contrast and colour as cameras differ; the crops already differ in scale, blur and JPEG."""
    n = x.shape[0]
    gain = 0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=generator)
    colour = 0.85 + 0.3 * torch.rand(n, 3, 1, 1, generator=generator)
    offset = -30 + 60 * torch.rand(n, 1, 1, 1, generator=generator)
    noise = 4 * torch.rand(n, 1, 1, 1, generator=generator) * torch.randn(x.shape, generator=generator)
    return (x * gain * colour + offset + noise).clamp(0, 255)


def main() -> None:
    work, out, epochs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else SEED
    torch.manual_seed(seed)
    torch.set_num_threads(int(os.environ.get('FINDER_THREADS', '1')))
    torch.use_deterministic_algorithms(True)
    meta = json.load(open(os.path.join(work, 'dice.json')))
    side = meta['side']
    crops = np.fromfile(os.path.join(work, 'crops.bin'), dtype=np.uint8).reshape(-1, side, side, 3)
    boxes = meta['crops']
    assert len(boxes) == len(crops), f'{len(crops)} crops but {len(boxes)} box lists'
    built = [targets(b, side) for b in boxes]
    heat = torch.from_numpy(np.stack([t[0] for t in built]))[:, None]
    reg = torch.from_numpy(np.stack([t[1] for t in built]))
    weight = torch.from_numpy(np.stack([t[2] for t in built]))
    model = Finder()
    optimiser = torch.optim.AdamW(model.parameters(), lr=0.004, weight_decay=1e-4)
    steps = epochs * ((len(crops) + BATCH - 1) // BATCH)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=0.004, total_steps=steps, pct_start=0.1)
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(crops), generator=generator)
        totals = np.zeros(3)
        for start in range(0, len(crops), BATCH):
            batch = order[start:start + BATCH]
            x = torch.from_numpy(crops[batch.numpy()]).permute(0, 3, 1, 2).float()
            h, r, w = heat[batch], reg[batch], weight[batch]
            # A quarter turn or a mirror image: dice have no up, and this turns the targets with them.
            k = int(torch.randint(4, (1,), generator=generator))
            flip = bool(torch.randint(2, (1,), generator=generator))
            x, h, r, w = transform(x, h, r, w, k, flip)
            y = F.pixel_shuffle(model(augment(x, generator)), SHUFFLE)
            heat_loss = focal(y[:, 0:1], h)
            centres = w[:, 0:1].sum().clamp(min=1)
            offset_loss = (F.l1_loss(y[:, 1:3], r[:, 0:2], reduction='none') * w[:, 0:1]).sum() / centres
            size_loss = (F.l1_loss(y[:, 3:5], r[:, 2:4], reduction='none') * w[:, 1:2]).sum() / w[:, 1:2].sum().clamp(min=1)
            loss = heat_loss + offset_loss + size_loss
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            totals += [heat_loss.item(), offset_loss.item(), size_loss.item()]
        batches = (len(crops) + BATCH - 1) // BATCH
        print(f'epoch {epoch + 1}/{epochs}: heat {totals[0] / batches:.4f}, offset {totals[1] / batches:.4f}, size {totals[2] / batches:.4f}', flush=True)
    model.eval()
    fold(model)
    probe = torch.from_numpy(crops[:CHECK]).permute(0, 3, 1, 2).float().contiguous()
    with torch.no_grad():
        F.pixel_shuffle(model(probe), SHUFFLE).numpy().astype('<f4').tofile(os.path.join(work, 'check.bin'))
    torch.onnx.export(model, probe[:1], out, opset_version=11, input_names=['image'], output_names=['dice'],
                      dynamic_axes={'image': {2: 'height', 3: 'width'}, 'dice': {2: 'rows', 3: 'cols'}})


def transform(x, h, r, w, k: int, flip: bool):
    """Turns a batch and its targets by k quarter turns (then mirrors it left to right): offsets and sizes swap and reflect."""
    ox, oy, lw, lh = r[:, 0:1], r[:, 1:2], r[:, 2:3], r[:, 3:4]
    for _ in range(k):
        # A quarter turn anticlockwise (rot90 over the last two axes): (x, y) -> (y, W - x); the offset in the cell follows.
        x, h, w = torch.rot90(x, 1, (2, 3)), torch.rot90(h, 1, (2, 3)), torch.rot90(w, 1, (2, 3))
        ox, oy = torch.rot90(oy, 1, (2, 3)), torch.rot90(1 - ox, 1, (2, 3))
        lw, lh = torch.rot90(lh, 1, (2, 3)), torch.rot90(lw, 1, (2, 3))
    if flip:
        x, h, w = x.flip(3), h.flip(3), w.flip(3)
        ox, oy, lw, lh = 1 - ox.flip(3), oy.flip(3), lw.flip(3), lh.flip(3)
    return x, h, torch.cat([ox, oy, lw, lh], 1), w


if __name__ == '__main__':
    main()
