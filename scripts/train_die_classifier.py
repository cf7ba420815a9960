"""Trains the die-face classifier on faces extracted by scripts/train-die-classifier.ts.

    /usr/bin/python3 scripts/train_die_classifier.py WORK_DIR OUT_DIR EPOCHS SIDE CHANNELS [SEED]

Reads WORK_DIR/faces.bin (float32, N x SIDE x SIDE x CHANNELS, as the reader's faceInput gives them) and WORK_DIR/values.bin
(uint8: 0 = not one die's face, 1-6 = the value), trains with every face in its 8 rotations and mirror images,
writes OUT_DIR/die-face.cfg and OUT_DIR/die-face.weights (Darknet, read by
OpenCV's dnn module) and WORK_DIR/check.bin (float32 probabilities of the first
faces, which the caller compares with OpenCV's). Debian's python3-torch; seeded
and single-threaded, so the same faces give the same files.
"""
import os
import struct
import sys

import numpy as np
import torch
from torch import nn

SIDE = 24  # set from the command line in main()
CHANNELS = 1  # likewise
# The network is the reader's largest single cost. Trained 30 epochs on six jittered copies of each photo face, 16/32/64 filters read
# the held-out halves as well as 24/48/96 at 15 epochs (two seeds), with half the work per view: nell-byler 640x640 photos read 1-1.5 ms faster.
FILTERS = (16, 32, 64)
# Batch normalisation after each 3x3 convolution, folded into it when the model is written (no cost in the reader). Held out
# on session 11's faces (nell-byler half 1, seed 7): recall 90.8 -> 92.2 %, precision 98.4 -> 99.0 %, wrong values 8 -> 4 (BENCHMARKS.md, session 12).
# Dropped during training only (OpenCV's network has no such layer): the faces are few, and without it the network learns them by heart.
DROPOUT = 0.3
# Each time a face is seen, its input is scaled by a random gain in this range and Gaussian noise of this spread is added: photos
# differ in exposure and sensor noise more than 100 photos per set show. Held out (two seeds), nell-byler: +0.3 points of recall,
# +0.2 of precision, fewer wrong values (BENCHMARKS.md, session 11).
GAIN = (0.75, 1.25)
NOISE = 0.04
SEED = 7  # the default; the command line may give another
CHECK = 200
CLASSES = 7  # not a face, then the values 1-6


def network() -> nn.Sequential:
    layers: list[nn.Module] = []
    channels = CHANNELS
    for filters in FILTERS:
        layers += [nn.Conv2d(channels, filters, 3, padding=1), nn.BatchNorm2d(filters), nn.LeakyReLU(0.1), nn.MaxPool2d(2, 2)]
        channels = filters
    # A 1x1 convolution to the classes, averaged over the face, then softmax (Darknet: convolutional, avgpool, softmax).
    layers += [nn.Dropout(DROPOUT)]
    layers += [nn.Conv2d(channels, CLASSES, 1), nn.AdaptiveAvgPool2d(1), nn.Flatten()]
    return nn.Sequential(*layers)


def symmetries(faces: np.ndarray) -> np.ndarray:
    rotations = [np.rot90(faces, k, axes=(1, 2)) for k in range(4)]
    return np.concatenate(rotations + [r[:, :, ::-1] for r in rotations])


def folded_convolutions(model: nn.Sequential) -> list[nn.Conv2d]:
    """The network's convolutions, each batch normalisation folded into the convolution before it (its running
    statistics are fixed once trained), so that the Darknet file holds plain convolutions."""
    layers = list(model)
    convolutions = []
    for conv, after in zip(layers, layers[1:] + [None]):
        if not isinstance(conv, nn.Conv2d):
            continue
        if isinstance(after, nn.BatchNorm2d):
            scale = after.weight.detach() / torch.sqrt(after.running_var + after.eps)
            folded = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, padding=conv.padding)
            folded.weight.data = conv.weight.detach() * scale.reshape(-1, 1, 1, 1)
            folded.bias.data = (conv.bias.detach() - after.running_mean) * scale + after.bias.detach()
            conv = folded
        convolutions.append(conv)
    return convolutions


def write_darknet(model: nn.Sequential, out: str) -> None:
    convolutions = folded_convolutions(model)
    cfg = ['[net]', f'width={SIDE}', f'height={SIDE}', f'channels={CHANNELS}', '']
    weights = []
    for i, conv in enumerate(convolutions):
        last = i == len(convolutions) - 1
        size = conv.kernel_size[0]
        cfg += ['[convolutional]', f'filters={conv.out_channels}', f'size={size}', 'stride=1', f'pad={1 if size > 1 else 0}', f'activation={"linear" if last else "leaky"}', '']
        if not last:
            cfg += ['[maxpool]', 'size=2', 'stride=2', '']
        # Darknet order: biases, then kernels as (out, in, y, x), which is PyTorch's own.
        weights += [conv.bias.detach().numpy().astype('<f4').ravel(), conv.weight.detach().numpy().astype('<f4').ravel()]
    cfg += ['[avgpool]', '', '[softmax]', '']
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'die-face.cfg'), 'w') as f:
        f.write('\n'.join(cfg))
    with open(os.path.join(out, 'die-face.weights'), 'wb') as f:
        # major, minor, revision, then images seen as 64 bits (version 0.2 and later)
        f.write(struct.pack('<iiiq', 0, 2, 0, 0))
        for w in weights:
            f.write(w.tobytes())


def main() -> None:
    global SIDE, CHANNELS, SEED
    work, out, epochs, SIDE, CHANNELS = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    if len(sys.argv) > 6:
        SEED = int(sys.argv[6])
    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    faces = np.fromfile(os.path.join(work, 'faces.bin'), dtype='<f4').reshape(-1, SIDE, SIDE, CHANNELS)
    values = np.fromfile(os.path.join(work, 'values.bin'), dtype=np.uint8).astype(np.int64)
    x = torch.from_numpy(np.ascontiguousarray(symmetries(faces).transpose(0, 3, 1, 2)))
    y = torch.from_numpy(np.tile(values, 8))
    model = network()
    optimiser = torch.optim.Adam(model.parameters(), lr=0.003)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)
    loss_of = nn.CrossEntropyLoss()
    generator = torch.Generator().manual_seed(SEED)
    # Its own generator: the order of the faces stays what it is without the augmentation.
    augment = torch.Generator().manual_seed(SEED + 1000)
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(x), generator=generator)
        total, right = 0.0, 0
        for start in range(0, len(x), 64):
            batch = order[start:start + 64]
            gain = GAIN[0] + (GAIN[1] - GAIN[0]) * torch.rand(len(batch), 1, 1, 1, generator=augment)
            faces_seen = x[batch] * gain + NOISE * torch.randn((len(batch), *x.shape[1:]), generator=augment)
            logits = model(faces_seen)
            loss = loss_of(logits, y[batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(batch)
            right += (logits.argmax(1) == y[batch]).sum().item()
        schedule.step()
        print(f'epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}, training accuracy {100 * right / len(x):.2f}%', flush=True)
    model.eval()
    write_darknet(model, out)
    with torch.no_grad():
        # As the reader classifies: each face in its 8 rotations and mirror images, the probabilities averaged.
        views = torch.from_numpy(np.ascontiguousarray(symmetries(faces[:CHECK]).transpose(0, 3, 1, 2)))
        check = torch.softmax(model(views), 1).reshape(8, -1, CLASSES).mean(0).numpy().astype('<f4')
    check.tofile(os.path.join(work, 'check.bin'))


if __name__ == '__main__':
    main()
