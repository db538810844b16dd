#!/usr/bin/env python3
"""Held-out packing instances with a perfect packing, written apart from analyzer/packing/generator.cpp.

Cuts a rectangle (HEIGHT bytes x STEPS time steps) into N pieces: a piece (the largest, or one at
random) is cut into 2-4 parts across time or across addresses, at uniform points or within its
middle half; addresses stay on a GRAIN-byte grid. The pieces fill the rectangle, so the optimum is
the lower bound. Writes minimalloc's CSV (id,lower,upper,size,alignment,offset), the offset column
being the perfect packing (tidepool ignores it on input). The settings are drawn from the seed, so
`cut_instances.py N SEED` names one instance:

    scripts/bench/cut_instances.py 10000 7 -o /tmp/cut-10000-7.csv
    build/bin/tidepool bench pack --algorithm best /tmp/cut-10000-7.csv

The point of a second generator is the issue's "targets hold on instances we keep aside": the
solver was never tuned on these.
"""
import argparse
import heapq
import random
import sys


def settings(seed):
    rng = random.Random(seed * 7919 + 13)
    return {
        "height": 1 << rng.choice([16, 20, 24, 28, 32]),
        "grain": rng.choice([1, 256, 256, 512]),
        "steps_per_item": rng.choice([0.2, 0.3, 0.5, 1.0, 2.0, 10.0]),
        "pick": rng.choice(["largest", "random"]),
        "points": rng.choice(["uniform", "middle"]),
        "max_parts": rng.choice([2, 3, 4]),
    }


def cut_points(rng, lo, hi, parts, points):
    """parts-1 distinct cut points strictly inside (lo, hi), in units; None if there is no room."""
    if hi - lo < parts:
        return None
    if points == "middle" and hi - lo >= 4 * parts:
        quarter = (hi - lo) // 4
        lo2, hi2 = lo + quarter, hi - quarter
    else:
        lo2, hi2 = lo, hi
    chosen = sorted(rng.sample(range(lo2 + 1, hi2), parts - 1))
    return chosen


def generate(n, seed, steps=None):
    s = settings(seed)
    rng = random.Random(seed)
    grain = s["grain"]
    units = s["height"] // grain
    steps = steps or max(2, int(n * s["steps_per_item"]))
    # Pieces are (t0, t1, a0, a1), addresses in grains. `cuttable` holds the pieces that may still
    # be cut: a max-heap by area for "largest", a list with swap-removal for "random".
    pieces = []
    cuttable = []

    def add(piece):
        pieces.append(piece)
        if s["pick"] == "largest":
            heapq.heappush(cuttable, (-(piece[1] - piece[0]) * (piece[3] - piece[2]), len(pieces) - 1))
        else:
            cuttable.append(len(pieces) - 1)

    def take():
        if s["pick"] == "largest":
            return heapq.heappop(cuttable)[1]
        i = rng.randrange(len(cuttable))
        cuttable[i], cuttable[-1] = cuttable[-1], cuttable[i]
        return cuttable.pop()

    add((0, steps, 0, units))
    live = 1
    while live < n and cuttable:
        index = take()
        t0, t1, a0, a1 = pieces[index]
        parts = min(rng.randint(2, s["max_parts"]), n - live + 1)
        across_time = rng.random() < 0.5
        cuts = None
        for direction in (across_time, not across_time):
            lo, hi = (t0, t1) if direction else (a0, a1)
            cuts = cut_points(rng, lo, hi, parts, s["points"])
            if cuts is not None:
                across_time = direction
                break
        if cuts is None:
            if parts == 2:
                continue  # cannot be cut at all: it stays a piece, out of `cuttable`
            add(pieces[index])  # perhaps into fewer parts next time
            pieces[index] = None
            continue
        pieces[index] = None
        lo, hi = (t0, t1) if across_time else (a0, a1)
        bounds = [lo] + cuts + [hi]
        for b0, b1 in zip(bounds, bounds[1:]):
            add((b0, b1, a0, a1) if across_time else (t0, t1, b0, b1))
        live += parts - 1
    items = [p for p in pieces if p is not None]
    rng.shuffle(items)
    return s, steps, grain, items


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--steps", type=int, help="time steps (default: drawn from the seed)")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    s, steps, grain, items = generate(args.n, args.seed, args.steps)
    with open(args.output, "w") as out:
        out.write("id,lower,upper,size,alignment,offset\n")
        for i, (t0, t1, a0, a1) in enumerate(items):
            out.write(f"{i},{t0},{t1},{(a1 - a0) * grain},{grain},{a0 * grain}\n")
    print(f"{args.output}: {len(items)} items, {steps} steps, height {s['height']}, grain {grain}, "
          f"pick {s['pick']}, points {s['points']}, parts 2-{s['max_parts']}", file=sys.stderr)


if __name__ == "__main__":
    main()
