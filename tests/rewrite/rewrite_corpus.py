"""Networks whose ``construct`` the rewrite tests parse, shared with the oracle recorder.

Load it with ``load(framework)``: ``ms``, ``nn`` and ``ops`` are then mindspore_hl in the tests and real MindSpore
in ``tools/oracle/record_rewrite.py``, so both sides parse the very same source.
"""
from oracle import for_framework  # tests/ is on the path of pytest and of the recorders


def load(framework):
    """This file as a module whose networks are built from ``framework``."""
    return for_framework(__file__, framework)


# Set by load() before this body runs; None when the file is imported directly (nothing is defined then).
ms, nn, ops = (globals().get(key) for key in ("ms", "nn", "ops"))

if nn is not None:

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(4, 8)
            self.relu = nn.ReLU()
            self.fc2 = nn.Dense(8, 3)
            self.abs = ops.Abs()

        def construct(self, x):
            x = self.fc1(x)
            x = self.relu(x)
            y = x * 2 + 1
            x = self.fc2(y)
            z = self.abs(x)
            return z

    class LeNet5(nn.Cell):
        def __init__(self, num_class=10, num_channel=1, include_top=True):
            super().__init__()
            self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.include_top = include_top
            if self.include_top:
                self.flatten = nn.Flatten()
                self.fc1 = nn.Dense(16 * 5 * 5, 120)
                self.fc2 = nn.Dense(120, 84)
                self.fc3 = nn.Dense(84, num_class)

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            if not self.include_top:
                return x
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)
            self.tanh = nn.Tanh()

        def construct(self, x):
            return self.tanh(self.dense(x)) + x

    class Misc(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)
            self.add = ops.Add()
            self.scale = 3.0
            self.block = Block()
            self.seq = nn.SequentialCell([nn.Dense(4, 4), nn.ReLU()])

        def construct(self, x, y=None):
            """Docstrings are dropped."""
            a = self.dense(x)
            c = self.add(a, x)
            d = c.reshape(2, 4)
            e = -d
            f = d - e * self.scale
            g = self.block(f)
            m = self.seq(g)
            for _i in range(2):
                m = m + self.dense(m)
            n = len(m.shape)
            if n > 1 and self.scale < 4:
                m = m * 2
            else:
                m = m - 1
            m += 1
            t = (m, n)
            return t

    class OpsNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 3)

        def construct(self, x):
            x = self.fc(x)
            return ops.abs(x)

    class Assigns(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)
            self.relu = nn.ReLU()
            self.steps = 2
            self.concat = ops.Concat(axis=1)

        def construct(self, x):
            a = 1
            b = x
            k = self.steps
            s = x[0]
            d = {"w": a, "v": b}
            p, (q, r) = x, (s, k)
            y = self.concat((self.relu(self.dense(x)), b))
            z = self.dense(x=self.relu(b))
            while k > 0:
                k = k - 1
                z = self.relu(z) * 2
            print("done", d["w"])
            return y, z, q, p + r
