"""How long one step of 03's wobble slider takes, the old way and the way it answers now.

Run: ``python benchmarks/slider_step.py``

The slider answers two questions for the wobble chosen: how often 40 and 45
swap (exactly, and in 2,000 levels), and how often a team of three wins. Before,
each step played the 2,000 levels one by one with the runner and 4,000 games on
the fast engine (0.6-1.0 s a step in the teacher's run). Now the races are
drawn directly (`swap_share`) and the team plays 1,000 games; an answer once
given is kept. Printed: seconds per step for both, measured in the same run on
five wobbles, and the ratio (target: about 0.3 s a step).
"""

from __future__ import annotations

import time

import numpy as np

from mindwidget.bots import ScalarTimer
from mindwidget.lesson import noise_slider
from mindwidget.lesson.nb03_probability import _swapped, summary_of

WOBBLES = (0.05, 0.1, 0.14, 0.2, 0.3)


def before(cv: float) -> float:
    start = time.perf_counter()
    bot = ScalarTimer(cv=cv)
    float(np.mean([_swapped(i, bot) for i in range(2000)]))
    summary_of(3, bot, 4000, 2)
    return time.perf_counter() - start


def after(box: object, cv: float) -> float:
    start = time.perf_counter()
    box.slider.value = cv  # type: ignore[attr-defined]
    return time.perf_counter() - start


def main() -> None:
    box = noise_slider("nl")
    box.slider.value = 0.0  # the first answer (0.14) is made when the cell runs
    print(f"{'wobble':>7} {'before, s':>10} {'now, s':>8} {'ratio':>6}")
    for cv in WOBBLES:
        b, a = before(cv), after(box, cv)
        print(f"{cv:>7.0%} {b:>10.2f} {a:>8.2f} {a / b:>6.2f}")
    again = after(box, WOBBLES[0])
    print(f"\na wobble seen before: {again * 1000:.1f} ms (the answer is kept)")


if __name__ == "__main__":
    main()
