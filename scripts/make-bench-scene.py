#!/usr/bin/env python3
"""Writes assets/scenes/bench-30v30.json: 30 v 30 troopers among 40 terrain pieces on a 48" table,
and assets/scenes/bench-30v30-ruins.json: the same with most pieces concave — L-shaped ruins and
U-shaped ones (a corner or a slot of each box notched out, never under the box's centre, where a
trooper may stand on the roof), as real tables have them.

Deterministic (fixed seeds); the benchmarks and `sightline measure` read the files.
"""
import json, math, random

rng = random.Random(20261130)
W = D = 48.0
pieces = []
def overlaps(a, b, pad=0.5):
    return not (a[2] + pad <= b[0] or b[2] + pad <= a[0] or a[3] + pad <= b[1] or b[3] + pad <= a[1])
while len(pieces) < 40:
    w, d = rng.uniform(1.0, 6.0), rng.uniform(1.0, 6.0)
    if rng.random() < 0.3:  # walls
        w, d = (rng.uniform(4, 9), rng.uniform(0.4, 0.8)) if rng.random() < 0.5 else (rng.uniform(0.4, 0.8), rng.uniform(4, 9))
    x, y = rng.uniform(0, W - w), rng.uniform(0, D - d)
    box = (x, y, x + w, y + d)
    if any(overlaps(box, p["box"]) for p in pieces):
        continue
    h = rng.choice([0.8, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0])
    pieces.append({"box": box, "h": h})
sil = {1: 25, 2: 25, 3: 40, 5: 40, 7: 55}
troopers = []
def free(x, y, r, elev):
    for p in pieces:
        x0, y0, x1, y1 = p["box"]
        if elev < p["h"] and x0 - r < x < x1 + r and y0 - r < y < y1 + r:
            return False
    for t in troopers:
        rr = sil[t["silhouette"]] / 2 / 25.4
        if math.hypot(t["x"] - x, t["y"] - y) < r + rr + 0.1 and abs(t.get("elevation", 0) - elev) < 1:
            return False
    return True
for side, (ylo, yhi), face in (("A", (1.0, 22.0), 90.0), ("B", (26.0, 47.0), 270.0)):
    n = 0
    on_roof = 0
    while n < 30:
        s = rng.choice([2, 2, 2, 2, 2, 2, 1, 3, 5, 5, 7] if n else [7])
        r = sil[s] / 2 / 25.4
        elev = 0.0
        if on_roof < 2 and rng.random() < 0.2:
            p = rng.choice(pieces)
            x0, y0, x1, y1 = p["box"]
            if x1 - x0 > 2 * r + 0.2 and y1 - y0 > 2 * r + 0.2 and ylo <= (y0 + y1) / 2 <= yhi:
                x, y, elev = (x0 + x1) / 2, (y0 + y1) / 2, p["h"]
                if free(x, y, r, elev):
                    on_roof += 1
                else:
                    continue
            else:
                continue
        else:
            x, y = rng.uniform(1.0, W - 1.0), rng.uniform(ylo, yhi)
            if not free(x, y, r, 0.0):
                continue
        t = {"id": f"{side.lower()}{n + 1}", "side": side, "silhouette": s, "x": round(x, 3), "y": round(y, 3),
             "facing": round(face + rng.uniform(-50, 50), 1)}
        if elev:
            t["elevation"] = elev
        troopers.append(t)
        n += 1
terrain = []
for i, p in enumerate(pieces):
    x0, y0, x1, y1 = (round(v, 3) for v in p["box"])
    terrain.append({"id": f"t{i + 1}", "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "height": p["h"]})
def write(path, terrain):
    with open(path, "w") as f:
        f.write("{\n  \"table\": {\"width\": 48, \"depth\": 48},\n  \"troopers\": [\n")
        f.write(",\n".join("    " + json.dumps(t) for t in troopers))
        f.write("\n  ],\n  \"terrain\": [\n")
        f.write(",\n".join("    " + json.dumps(t) for t in terrain))
        f.write("\n  ]\n}\n")
write("assets/scenes/bench-30v30.json", terrain)
print(len(troopers), "troopers,", len(terrain), "pieces")
# The ruins: 40% L (the corner beyond 55–80% of the width and depth cut away), 30% U (a slot
# from 55–80% of the depth up, between 30% and 70% of the width, cut away), 30% kept whole.
ruin_rng = random.Random(20261201)
ruins = []
for t in terrain:
    (x0, y0), (x1, _), (_, y1), _ = t["polygon"]
    w, d = x1 - x0, y1 - y0
    kind = ruin_rng.random()
    nx, ny = (round(v, 3) for v in (x0 + w * ruin_rng.uniform(0.55, 0.8), y0 + d * ruin_rng.uniform(0.55, 0.8)))
    if kind < 0.4:
        poly = [[x0, y0], [x1, y0], [x1, ny], [nx, ny], [nx, y1], [x0, y1]]
    elif kind < 0.7:
        a, b = round(x0 + 0.3 * w, 3), round(x0 + 0.7 * w, 3)
        poly = [[x0, y0], [x1, y0], [x1, y1], [b, y1], [b, ny], [a, ny], [a, y1], [x0, y1]]
    else:
        poly = t["polygon"]
    ruins.append({**t, "polygon": poly})
write("assets/scenes/bench-30v30-ruins.json", ruins)
print(sum(len(t["polygon"]) > 4 for t in ruins), "of them concave in the ruins scene")
