#!/usr/bin/env python3
"""A few training steps of a torchvision ResNet on random data, for scripts/gpu/check.sh.

Deterministic (fixed seeds, deterministic algorithms, no downloads: weights=None), so that two runs
of the same configuration print the same loss and checksum whatever allocator serves the tensors.
Prints, one `key: value` per line: allocator, max_memory_allocated, max_memory_reserved,
first_step_ms, step_time_ms (median of the steps after the first), loss, checksum (of every
parameter's bytes after training).
"""
import argparse
import hashlib
import os
import statistics
import time

# cuBLAS is deterministic only with a fixed workspace; it must be set before cuBLAS starts.
os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")

import torch  # noqa: E402
import torchvision  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="resnet18", choices=["resnet18", "resnet50"])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--image", type=int, default=224, help="image side in pixels")
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.batch < 1 or args.steps < 2 or args.image < 32:
        parser.error("need --batch >= 1, --steps >= 2, --image >= 32")
    return args


class GlobalMeanPool(torch.nn.Module):
    """ResNet's AdaptiveAvgPool2d(1) as a mean, whose backward is deterministic on CUDA."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.mean(dim=(2, 3), keepdim=True)


def parameter_checksum(model: torch.nn.Module) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for parameter in model.parameters():
        digest.update(parameter.detach().cpu().contiguous().numpy().tobytes())
    return digest.hexdigest()


def main() -> None:
    args = parse_args()
    torch.manual_seed(args.seed)
    torch.backends.cudnn.benchmark = False
    torch.backends.cudnn.deterministic = True
    # Warn rather than stop on an op with no deterministic kernel: the memory figures still count,
    # and two runs' checksums then show whether the results moved.
    torch.use_deterministic_algorithms(True, warn_only=True)
    device = torch.device("cuda")
    model = getattr(torchvision.models, args.model)(weights=None)
    model.avgpool = GlobalMeanPool()
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    data = torch.Generator(device=device).manual_seed(args.seed)
    step_ms = []
    loss = torch.zeros((), device=device)
    for _ in range(args.steps):
        images = torch.randn(args.batch, 3, args.image, args.image, device=device, generator=data)
        labels = torch.randint(0, 1000, (args.batch,), device=device, generator=data)
        torch.cuda.synchronize()
        start = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(images), labels)
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize()
        step_ms.append((time.perf_counter() - start) * 1e3)
    print(f"allocator: {torch.cuda.get_allocator_backend()}")
    print(f"max_memory_allocated: {torch.cuda.max_memory_allocated()}")
    print(f"max_memory_reserved: {torch.cuda.max_memory_reserved()}")
    print(f"first_step_ms: {step_ms[0]:.3f}")
    print(f"step_time_ms: {statistics.median(step_ms[1:]):.3f}")
    print(f"loss: {loss.item():.9g}")
    print(f"checksum: {parameter_checksum(model)}")


if __name__ == "__main__":
    main()
