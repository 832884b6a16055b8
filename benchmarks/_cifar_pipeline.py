"""The CIFAR-10 augmentation pipeline of ``benchmarks.dataset_pipeline`` (``--pipeline cifar``).

Each framework reads the same synthetic CIFAR-10 binary file and runs RandomCrop(32, padding=4),
RandomHorizontalFlip, Normalize(mean, std), HWC2CHW and batch(128, drop_remainder=True); one warm-up epoch, then
``--epochs`` timed epochs. Real MindSpore runs in its own interpreter (``MS_SCRIPT`` below, via subprocess);
PyTorch uses a Dataset doing the same steps with torch tensor ops and a DataLoader, best of the worker counts.
"""
import json
import os
import subprocess
import tempfile
import time

import numpy as np

MEAN = [125.3, 123.0, 113.9]
STD = [63.0, 62.1, 66.7]
BATCH = 128

MS_SCRIPT = r"""
import json, sys, time
import mindspore.dataset as ds
import mindspore.dataset.vision as vision
folder, epochs, mean, std = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4])
ds.config.set_seed(0)
d = ds.Cifar10Dataset(folder, usage="train", shuffle=True)
d = d.map([vision.RandomCrop(32, padding=4), vision.RandomHorizontalFlip(), vision.Normalize(mean, std),
           vision.HWC2CHW()], "image")
d = d.batch(128, drop_remainder=True)
it = d.create_tuple_iterator(num_epochs=epochs + 1, output_numpy=True)
for _ in it:
    pass
n, t = 0, time.perf_counter()
for e in range(epochs):
    for img, lab in it:
        n += len(img)
print(json.dumps({"images": n, "seconds": time.perf_counter() - t}))
"""


def write_cifar(folder, n, seed=0):
    """``n`` random CIFAR-10 records in files of 10000 (``data_batch_<k>.bin``; MindSpore's reader expects
    whole files of 10000 records)."""
    rng = np.random.default_rng(seed)
    for k in range(-(-n // 10000)):
        m = min(10000, n - 10000 * k)
        labels = rng.integers(0, 10, m, dtype=np.uint8)
        pixels = rng.integers(0, 256, (m, 3072), dtype=np.uint8)
        with open(os.path.join(folder, f"data_batch_{k + 1}.bin"), "wb") as f:
            f.write(np.concatenate([labels[:, None], pixels], axis=1).tobytes())


def hl_ips(folder, epochs):
    import mindspore_hl.dataset as ds
    from mindspore_hl.dataset import vision
    ds.config.set_seed(0)
    d: ds.Dataset = ds.Cifar10Dataset(folder, usage="train", shuffle=True)
    d = d.map([vision.RandomCrop(32, padding=4), vision.RandomHorizontalFlip(), vision.Normalize(MEAN, STD),
               vision.HWC2CHW()], "image")
    d = d.batch(BATCH, drop_remainder=True)
    it = d.create_tuple_iterator(num_epochs=epochs + 1, output_numpy=True)
    for _ in it:
        pass
    n, t = 0, time.perf_counter()
    for _ in range(epochs):
        for img, _lab in it:
            n += len(img)
    return n / (time.perf_counter() - t)


def ms_ips(folder, epochs, python):
    if not os.path.isfile(python):
        return None, f"no MindSpore interpreter at {python}"
    out = subprocess.run([python, "-c", MS_SCRIPT, folder, str(epochs), json.dumps(MEAN), json.dumps(STD)],
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        return None, f"MindSpore run failed: {out.stderr.strip().splitlines()[-1:]}"
    res = json.loads(out.stdout.strip().splitlines()[-1])
    return res["images"] / res["seconds"], ""


def torch_ips(folder, epochs, workers_list):
    try:
        import torch
        from torch.utils.data import DataLoader, Dataset
    except ImportError:
        return None, None, "torch is not installed"

    raw = np.concatenate([np.fromfile(os.path.join(folder, f), np.uint8).reshape(-1, 3073)
                          for f in sorted(os.listdir(folder))])
    images = torch.from_numpy(raw[:, 1:].reshape(-1, 3, 32, 32).copy())
    labels = torch.from_numpy(raw[:, 0].astype(np.int64))
    mean = torch.tensor(MEAN).view(3, 1, 1)
    std = torch.tensor(STD).view(3, 1, 1)

    class Cifar(Dataset):
        def __len__(self):
            return len(labels)

        def __getitem__(self, i):
            img = torch.nn.functional.pad(images[i], (4, 4, 4, 4))
            y, x = torch.randint(0, 9, (2,)).tolist()
            img = img[:, y:y + 32, x:x + 32]
            if torch.rand(()) < 0.5:
                img = img.flip(-1)
            return (img.float() - mean) / std, labels[i]

    best, best_w = None, None
    for w in workers_list:
        loader = DataLoader(Cifar(), batch_size=BATCH, shuffle=True, drop_last=True, num_workers=w,
                            persistent_workers=w > 0)
        for _ in loader:
            pass
        n, t = 0, time.perf_counter()
        for _ in range(epochs):
            for img, _lab in loader:
                n += len(img)
        ips = n / (time.perf_counter() - t)
        if best is None or ips > best:
            best, best_w = ips, w
    return best, best_w, ""


def run(args):
    with tempfile.TemporaryDirectory() as folder:
        write_cifar(folder, args.images)
        hl = hl_ips(folder, args.epochs)
        ms, ms_note = ms_ips(folder, args.epochs, args.mindspore_python)
        th, th_workers, th_note = torch_ips(folder, args.epochs,
                                            [int(w) for w in args.torch_workers.split(",") if w != ""])
    result = {"benchmark": "dataset_pipeline", "pipeline": "cifar10_augment", "images": args.images,
              "epochs": args.epochs, "batch": BATCH, "mindspore_hl_images_per_s": round(hl, 1),
              "mindspore_images_per_s": None if ms is None else round(ms, 1),
              "torch_images_per_s": None if th is None else round(th, 1), "torch_workers": th_workers,
              "vs_mindspore": None if ms is None else round(hl / ms, 2),
              "vs_torch": None if th is None else round(hl / th, 2), "goal": {"vs_mindspore": 2.0, "vs_torch": 1.0}}
    print(json.dumps(result))
    print(f"{'':<34}{'images/s':>12}")
    print(f"{'mindspore_hl.dataset':<34}{hl:>12.0f}")
    print(f"{'MindSpore dataset engine':<34}{ms:>12.0f}" if ms is not None else f"MindSpore: skipped ({ms_note})")
    print(f"{f'PyTorch DataLoader ({th_workers} workers)':<34}{th:>12.0f}" if th is not None else
          f"PyTorch: skipped ({th_note})")
    return result
