#!/usr/bin/env bash
# Colour management (issue 26) beside the tools users would pick instead, in one run:
#   1. Accuracy: every valid corpus file carrying an ICC profile, converted to sRGB by
#      `webimage convert` (the default, --colour srgb), by Pillow's ImageCms (lcms2, perceptual)
#      and by libvips's icc_transform (lcms2, perceptual), each compared with the others as a
#      CIEDE2000 mean and 99th percentile (computed here in numpy from the CIE formulas, not by
#      lcms2). "ignored" is what every decoder did before: the stored pixels shown as sRGB.
#      Orientation is left out of it: each pair is compared in the orientation that matches best
#      (the tools disagree on XMP orientation, which is not colour).
#   2. Speed: a 256 px thumbnail of the benchmark photo, untagged and tagged with a wide-gamut
#      profile (Ghostscript's a98.icc, Adobe RGB), CPU seconds per image for ours (one process per
#      image, --colour srgb and --colour ignore), Pillow (draft + thumbnail + ImageCms) and libvips
#      (thumbnail with export_profile srgb), and each tagged/untagged ratio.
# Needs: the release CLI (built here), python3 with numpy, Pillow and pyvips (pip), libvips42 and
# libgs-common (apt). N sets the timing repetitions (default 5).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${WEBIMAGE_CORPUS:-$(cd "$here/../.." && pwd)/shared/corpus/public}"
[[ -f "$corpus/manifest.json" ]] || { echo "corpus not found at $corpus (set WEBIMAGE_CORPUS)"; exit 1; }
N="${N:-5}"
cli="${WEBIMAGE_CLI:-$here/../.build/release/webimage}"
[[ -n "${WEBIMAGE_CLI:-}" ]] || swift build -c release --static-swift-stdlib --package-path "$here/.." --product webimage >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
python3 - "$corpus" "$cli" "$work" "$N" <<'PY'
import io, json, os, resource, subprocess, sys, time
import numpy as np
from PIL import Image, ImageCms
import pyvips

corpus, cli, work, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
pyvips.cache_set_max(0)

# --- CIEDE2000 (Sharma, Wu, Dalal 2005), sRGB -> XYZ (D65) -> Lab (D65 white) ---------------
def lab(rgb8):
    c = rgb8.reshape(-1, 3).astype(np.float64) / 255
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]])
    xyz = lin @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1)

def ciede2000(a, b):
    L1, a1, b1 = a.T; L2, a2, b2 = b.T
    C1, C2 = np.hypot(a1, b1), np.hypot(a2, b2)
    Cm = (C1 + C2) / 2
    G = 0.5 * (1 - np.sqrt(Cm ** 7 / (Cm ** 7 + 25.0 ** 7)))
    a1p, a2p = a1 * (1 + G), a2 * (1 + G)
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dLp, dCp = L2 - L1, C2p - C1p
    dh = h2p - h1p
    dh = np.where(C1p * C2p == 0, 0, np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh)))
    dHp = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dh / 2))
    Lpm, Cpm = (L1 + L2) / 2, (C1p + C2p) / 2
    hs = h1p + h2p
    hpm = np.where(C1p * C2p == 0, hs, np.where(np.abs(h1p - h2p) <= 180, hs / 2, np.where(hs < 360, (hs + 360) / 2, (hs - 360) / 2)))
    T = 1 - 0.17 * np.cos(np.radians(hpm - 30)) + 0.24 * np.cos(np.radians(2 * hpm)) + 0.32 * np.cos(np.radians(3 * hpm + 6)) - 0.20 * np.cos(np.radians(4 * hpm - 63))
    dtheta = 30 * np.exp(-(((hpm - 275) / 25) ** 2))
    Rc = 2 * np.sqrt(Cpm ** 7 / (Cpm ** 7 + 25.0 ** 7))
    Sl = 1 + 0.015 * (Lpm - 50) ** 2 / np.sqrt(20 + (Lpm - 50) ** 2)
    Sc, Sh = 1 + 0.045 * Cpm, 1 + 0.015 * Cpm * T
    Rt = -np.sin(np.radians(2 * dtheta)) * Rc
    return np.sqrt((dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh))

def orientations(a):
    """The 8 orientations of an H×W×3 array."""
    for k in range(4):
        r = np.rot90(a, k)
        yield r
        yield r[:, ::-1]

def stats(x, y):
    # Colour, not orientation: the tools disagree on XMP orientation (Pillow reads it for AVIF,
    # libvips for none), so y is compared in whichever orientation matches x best.
    best = None
    for candidate in orientations(y):
        if candidate.shape != x.shape:
            continue
        d = ciede2000(lab(x), lab(np.ascontiguousarray(candidate)))
        if best is None or d.mean() < best.mean():
            best = d
    if best is None:
        return "size differs"
    return f"{best.mean():.2f} / {np.percentile(best, 99):.2f}"

# --- 1. Accuracy ------------------------------------------------------------------------------
manifest = json.load(open(os.path.join(corpus, "manifest.json")))
srgb = ImageCms.createProfile("sRGB")
T = Image.Transpose
ORIENT = {2: T.FLIP_LEFT_RIGHT, 3: T.ROTATE_180, 4: T.FLIP_TOP_BOTTOM, 5: T.TRANSPOSE, 6: T.ROTATE_270, 7: T.TRANSVERSE, 8: T.ROTATE_90}
rows = []
for entry in manifest["files"]:
    pillow = entry.get("pillow") or {}
    if not pillow.get("icc_profile") or entry.get("expected_validity") != "valid":
        continue
    path = os.path.join(corpus, entry["file"])
    try:
        im = Image.open(path)
        im.seek(0)
        icc = im.info.get("icc_profile")
        src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        mode = "RGB"
        base = im.convert("CMYK" if im.mode == "CMYK" else ("L" if im.mode in ("L", "LA", "I;16", "I") else "RGB"))
        ref = ImageCms.profileToProfile(base, src, srgb, outputMode=mode, renderingIntent=ImageCms.Intent.PERCEPTUAL)
    except Exception as error:  # not an ICC profile Pillow's lcms2 can use
        print(f"  skipped {entry['file']}: Pillow: {error}")
        continue
    # webimage applies the EXIF orientation (JPEG APP1, PNG eXIf); so do the anchors here.
    orientation = im.getexif().get(0x0112, 1)
    if orientation in ORIENT:
        ref = ref.transpose(ORIENT[orientation])
    ref = np.asarray(ref.convert("RGB"))
    outputs = {}
    for policy in ("srgb", "ignore"):
        out = os.path.join(work, f"{policy}.png")
        subprocess.run([cli, "convert", path, out, "--colour", policy], check=True, capture_output=True)
        outputs[policy] = np.asarray(Image.open(out).convert("RGB"))
    try:
        v = pyvips.Image.new_from_file(path).autorot()
        v = v.icc_transform("srgb", intent="perceptual", embedded=True)
        if v.bands > 3: v = v.extract_band(0, n=3)
        if v.format != "uchar": v = v.cast("uchar")
        vips = np.ndarray(buffer=v.write_to_memory(), dtype=np.uint8, shape=[v.height, v.width, v.bands])
        if vips.shape[2] == 1: vips = np.repeat(vips, 3, axis=2)
        vips_cell = stats(outputs["srgb"], vips)
    except Exception as error:
        vips_cell = "n/a"
    rows.append((stats(outputs["ignore"], ref), entry["file"], stats(outputs["srgb"], ref), vips_cell, stats(outputs["ignore"], ref)))

print("\nAccuracy, CIEDE2000 mean / p99 (per file):")
print("| file | ours vs Pillow ImageCms | ours vs libvips icc_transform | ignored vs Pillow (before) |")
print("|---|---|---|---|")
for _, file, ours_pil, ours_vips, ignored in sorted(rows, key=lambda r: -float(r[0].split(" / ")[0])):
    print(f"| {file} | {ours_pil} | {ours_vips} | {ignored} |")

# --- 2. Speed ---------------------------------------------------------------------------------
photo = os.path.join(corpus, "deb-lomiri-wallpapers-16.04/seeding_by_Clements_Engelhardt.jpg")
a98 = open("/usr/share/color/icc/ghostscript/a98.icc", "rb").read()
data = open(photo, "rb").read()
app2 = b"ICC_PROFILE\0\x01\x01" + a98
tagged = data[:2] + b"\xff\xe2" + (len(app2) + 2).to_bytes(2, "big") + app2 + data[2:]
files = {"untagged": os.path.join(work, "untagged.jpg"), "tagged": os.path.join(work, "tagged.jpg")}
open(files["untagged"], "wb").write(data)
open(files["tagged"], "wb").write(tagged)
w, h = Image.open(photo).size

def child_cpu(cmd):
    best = None
    for _ in range(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = cpu if best is None else min(best, cpu)
    return best

def own_cpu(run):
    best = None
    for _ in range(n):
        start = time.process_time(); run(); cpu = time.process_time() - start
        best = cpu if best is None else min(best, cpu)
    return best

def pillow_thumb(path, managed):
    im = Image.open(path); im.draft("RGB", (512, 512)); im.thumbnail((256, 256))
    if managed and im.info.get("icc_profile"):
        im = ImageCms.profileToProfile(im, ImageCms.ImageCmsProfile(io.BytesIO(im.info["icc_profile"])), srgb)
    im.tobytes()

def vips_thumb(path, managed):
    options = {"export_profile": "srgb"} if managed else {}
    pyvips.Image.thumbnail(path, 256, **options).write_to_memory()

out = os.path.join(work, "thumb.png")
print(f"\nSpeed: 256 px thumbnail of a {w}x{h} JPEG, best CPU ms of {n} (tagged = Adobe RGB profile embedded):")
print("| tool | untagged | tagged, converted | tagged ÷ untagged |")
print("|---|---|---|---|")
results = {}
for name, measure in [
    ("webimage (process per image)", lambda f: child_cpu([cli, "convert", f, out, "--thumbnail", "256"])),
    ("Pillow draft + thumbnail + ImageCms", lambda f: own_cpu(lambda: pillow_thumb(f, True))),
    ("libvips thumbnail, export_profile srgb", lambda f: own_cpu(lambda: vips_thumb(f, True))),
]:
    plain, managed = measure(files["untagged"]), measure(files["tagged"])
    results[name] = (plain, managed)
    print(f"| {name} | {plain * 1000:.1f} | {managed * 1000:.1f} | {managed / plain:.2f}× |")
ignore = child_cpu([cli, "convert", files["tagged"], out, "--thumbnail", "256", "--colour", "ignore"])
print(f"| webimage, tagged, --colour ignore | | {ignore * 1000:.1f} | |")
ours = results["webimage (process per image)"][1]
for name, (_, managed) in results.items():
    if not name.startswith("webimage"):
        print(f"  tagged: ours ÷ {name.split(' ')[0]} = {ours / managed:.2f} (CPU; below 1 is faster)")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
