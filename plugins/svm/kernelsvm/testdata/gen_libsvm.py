#!/usr/bin/python3
"""Generate libsvm_ref.json: the reference solutions of LIBSVM (Debian
libsvm-tools and libsvm3 3.24) that the parity tests of package kernelsvm
compare with.

For each case: the data set's features are scaled to [-1, 1] over the
whole file (svm-scale's formula lower + (upper - lower)(x - min)/(max -
min); a constant feature is left out, i.e. 0), classes are numbered by
sorted class name (label = index + 1), rows i with i % 5 == 4 are the test
set and the others the training set. Both sets are written in LIBSVM's
format with %.17g (the Go tests rebuild the same doubles from the CSV with
the same arithmetic), then:

  * svm-train trains the model (its stdout gives each pair's objective and
    iterations) and svm-predict predicts the test rows (with -b 1 the
    probability estimates too);
  * the same svm_train runs in this process through ctypes on libsvm.so.3,
    with rand() reseeded by srand(1) as in a fresh svm-train process; its
    model, saved with svm_save_model, must equal svm-train's file byte for
    byte, and gives what the model file lacks: the training rows of the
    support vectors (sv_indices) and the decision values of the test rows
    (svm_predict_values), whose predictions must equal svm-predict's.

Debian's svm-train parses its options with strtof: the parameters it
trains with (recorded under "params") are those values rounded to float32.

It also writes cmd/bench/testdata/svm_letter_ref.json, svm-predict's labels
for the end-to-end test of the kernel SVM under the ovo reduction (see
letter_case).

Run from anywhere (needs libsvm-tools; `make test-deps` installs it):
  /usr/bin/python3 plugins/svm/kernelsvm/testdata/gen_libsvm.py
"""
import ctypes
import csv
import gzip
import json
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "../../../../testdata/data")

# name, data set, svm-train options (beyond -s 0 and -q-free output)
CASES = [
    ("iris_rbf", "iris", ["-t", "2", "-g", "0.5", "-c", "1"]),
    ("iris_linear", "iris", ["-t", "0", "-c", "1"]),
    ("iris_poly", "iris", ["-t", "1", "-d", "3", "-g", "0.5", "-r", "1", "-c", "1"]),
    ("iris_sigmoid", "iris", ["-t", "3", "-g", "0.2", "-r", "-0.5", "-c", "2"]),
    ("iris_weights", "iris", ["-t", "2", "-g", "0.5", "-c", "4", "-w1", "2", "-w3", "0.5"]),
    ("wine_prob", "wine", ["-t", "2", "-g", "0.1", "-c", "10", "-b", "1"]),
    ("glass_rbf", "glass", ["-t", "2", "-g", "1", "-c", "100"]),
    ("vehicle_rbf", "vehicle", ["-t", "2", "-g", "0.5", "-c", "16"]),
    ("vehicle_noshrink", "vehicle", ["-t", "2", "-g", "0.5", "-c", "16", "-h", "0", "-e", "1e-5"]),
    ("cancer_prob", "breast_cancer", ["-t", "2", "-g", "0.03", "-c", "1", "-b", "1"]),
]


class Node(ctypes.Structure):
    _fields_ = [("index", ctypes.c_int), ("value", ctypes.c_double)]


class Problem(ctypes.Structure):
    _fields_ = [("l", ctypes.c_int), ("y", ctypes.POINTER(ctypes.c_double)),
                ("x", ctypes.POINTER(ctypes.POINTER(Node)))]


class Parameter(ctypes.Structure):
    _fields_ = [("svm_type", ctypes.c_int), ("kernel_type", ctypes.c_int),
                ("degree", ctypes.c_int), ("gamma", ctypes.c_double),
                ("coef0", ctypes.c_double), ("cache_size", ctypes.c_double),
                ("eps", ctypes.c_double), ("C", ctypes.c_double),
                ("nr_weight", ctypes.c_int),
                ("weight_label", ctypes.POINTER(ctypes.c_int)),
                ("weight", ctypes.POINTER(ctypes.c_double)),
                ("nu", ctypes.c_double), ("p", ctypes.c_double),
                ("shrinking", ctypes.c_int), ("probability", ctypes.c_int)]


class Model(ctypes.Structure):
    _fields_ = [("param", Parameter), ("nr_class", ctypes.c_int), ("l", ctypes.c_int),
                ("SV", ctypes.POINTER(ctypes.POINTER(Node))),
                ("sv_coef", ctypes.POINTER(ctypes.POINTER(ctypes.c_double))),
                ("rho", ctypes.POINTER(ctypes.c_double)),
                ("probA", ctypes.POINTER(ctypes.c_double)),
                ("probB", ctypes.POINTER(ctypes.c_double)),
                ("sv_indices", ctypes.POINTER(ctypes.c_int)),
                ("label", ctypes.POINTER(ctypes.c_int)),
                ("nSV", ctypes.POINTER(ctypes.c_int)), ("free_sv", ctypes.c_int)]


lib = ctypes.CDLL("libsvm.so.3")
lib.svm_train.restype = ctypes.POINTER(Model)
lib.svm_train.argtypes = [ctypes.POINTER(Problem), ctypes.POINTER(Parameter)]
lib.svm_save_model.argtypes = [ctypes.c_char_p, ctypes.POINTER(Model)]
lib.svm_predict_values.restype = ctypes.c_double
lib.svm_predict_values.argtypes = [ctypes.POINTER(Model), ctypes.POINTER(Node),
                                   ctypes.POINTER(ctypes.c_double)]
lib.svm_predict_probability.restype = ctypes.c_double
lib.svm_predict_probability.argtypes = [ctypes.POINTER(Model), ctypes.POINTER(Node),
                                        ctypes.POINTER(ctypes.c_double)]
PRINT = ctypes.CFUNCTYPE(None, ctypes.c_char_p)
quiet = PRINT(lambda s: None)
lib.svm_set_print_string_function(quiet)
libc = ctypes.CDLL("libc.so.6")


def load(name):
    path = os.path.join(DATA, name + ".csv")
    opener = open
    if not os.path.exists(path):
        path, opener = path + ".gz", gzip.open
    with opener(path, "rt") as f:
        rows = list(csv.reader(f))[1:]
    x = [[float(v) for v in r[:-1]] for r in rows]
    names = sorted(set(r[-1] for r in rows))
    y = [names.index(r[-1]) + 1 for r in rows]
    d = len(x[0])
    lo = [min(r[j] for r in x) for j in range(d)]
    hi = [max(r[j] for r in x) for j in range(d)]
    scaled = []
    for r in x:
        s = []
        for j in range(d):
            if hi[j] == lo[j]:
                s.append(0.0)
            else:
                s.append(-1.0 + (1.0 - -1.0) * (r[j] - lo[j]) / (hi[j] - lo[j]))
        scaled.append(s)
    return scaled, y


def write(path, x, y):
    with open(path, "w") as f:
        for xi, yi in zip(x, y):
            f.write("%d %s\n" % (yi, " ".join(
                "%d:%.17g" % (j + 1, v) for j, v in enumerate(xi) if v != 0)))


def nodes(xi):
    arr = (Node * (len(xi) + 1))()
    k = 0
    for j, v in enumerate(xi):
        if v != 0:
            arr[k].index, arr[k].value = j + 1, v
            k += 1
    arr[k].index = -1
    return arr


def f32(v):
    """The value svm-train takes for option value v: Debian's svm-train
    parses its options with strtof, so they are float32 numbers."""
    return ctypes.c_float(float(v)).value


def param_of(opts):
    p = Parameter(svm_type=0, kernel_type=2, degree=3, gamma=0, coef0=0, cache_size=100,
                  eps=1e-3, C=1, nr_weight=0, nu=0.5, p=0.1, shrinking=1, probability=0)
    wl, wv = [], []
    i = 0
    while i < len(opts):
        o, v = opts[i], opts[i + 1]
        i += 2
        if o == "-t":
            p.kernel_type = int(v)
        elif o == "-d":
            p.degree = int(v)
        elif o == "-g":
            p.gamma = f32(v)
        elif o == "-r":
            p.coef0 = f32(v)
        elif o == "-c":
            p.C = f32(v)
        elif o == "-e":
            p.eps = f32(v)
        elif o == "-h":
            p.shrinking = int(v)
        elif o == "-b":
            p.probability = int(v)
        elif o.startswith("-w"):
            wl.append(int(o[2:]))
            wv.append(f32(v))
        else:
            raise ValueError(o)
    p.nr_weight = len(wl)
    p.weight_label = (ctypes.c_int * max(1, len(wl)))(*wl)
    p.weight = (ctypes.c_double * max(1, len(wv)))(*wv)
    return p


def run_case(name, data, opts, tmp):
    x, y = load(data)
    train = [i for i in range(len(x)) if i % 5 != 4]
    test = [i for i in range(len(x)) if i % 5 == 4]
    xtr, ytr = [x[i] for i in train], [y[i] for i in train]
    xte, yte = [x[i] for i in test], [y[i] for i in test]
    ftr, fte = os.path.join(tmp, "train"), os.path.join(tmp, "test")
    write(ftr, xtr, ytr)
    write(fte, xte, yte)
    fmodel, fout = os.path.join(tmp, "model"), os.path.join(tmp, "out")
    out = subprocess.run(["svm-train"] + opts + [ftr, fmodel], check=True,
                         capture_output=True, text=True).stdout
    prob = "-b" in opts and opts[opts.index("-b") + 1] == "1"
    pred_cmd = ["svm-predict"] + (["-b", "1"] if prob else []) + [fte, fmodel, fout]
    subprocess.run(pred_cmd, check=True, capture_output=True, text=True)
    with open(fout) as f:
        lines = f.read().split("\n")
    if prob:
        lines = lines[1:]
    cli_pred = [int(float(l.split()[0])) for l in lines if l]
    # the same training in this process
    nodes_tr = [nodes(r) for r in xtr]
    prob_c = Problem(l=len(xtr), y=(ctypes.c_double * len(ytr))(*ytr),
                     x=(ctypes.POINTER(Node) * len(xtr))(*[ctypes.cast(n, ctypes.POINTER(Node)) for n in nodes_tr]))
    par = param_of(opts)
    libc.srand(1)
    mp = lib.svm_train(ctypes.byref(prob_c), ctypes.byref(par))
    m = mp.contents
    fmodel2 = os.path.join(tmp, "model2")
    lib.svm_save_model(fmodel2.encode(), mp)
    with open(fmodel, "rb") as a, open(fmodel2, "rb") as b:
        if a.read() != b.read():
            raise RuntimeError("%s: svm_train through ctypes differs from svm-train" % name)
    k = m.nr_class
    labels = [m.label[i] for i in range(k)]
    nsv = [m.nSV[i] for i in range(k)]
    start = [sum(nsv[:i]) for i in range(k)]
    sv_rows = [m.sv_indices[i] - 1 for i in range(m.l)]
    # objective and iterations of each pair's final training, in order
    iters = [int(v) for v in re.findall(r"#iter = (\d+)", out)]
    objs = [float(v) for v in re.findall(r"obj = (\S+),", out)]
    pairs = []
    p = 0
    for i in range(k):
        for j in range(i + 1, k):
            svs = []
            for q in range(nsv[i]):
                c = m.sv_coef[j - 1][start[i] + q]
                if c != 0:
                    svs.append([sv_rows[start[i] + q], c])
            for q in range(nsv[j]):
                c = m.sv_coef[i][start[j] + q]
                if c != 0:
                    svs.append([sv_rows[start[j] + q], c])
            e = {"labels": [labels[i], labels[j]], "rho": m.rho[p], "sv": svs}
            if not prob:
                e["obj"], e["iter"] = objs[p], iters[p]
            else:
                e["probA"], e["probB"] = m.probA[p], m.probB[p]
            pairs.append(e)
            p += 1
    dec, pred, probs = [], [], []
    npairs = k * (k - 1) // 2
    buf = (ctypes.c_double * npairs)()
    pbuf = (ctypes.c_double * k)()
    for r in xte:
        nd = nodes(r)
        lab = lib.svm_predict_values(mp, ctypes.cast(nd, ctypes.POINTER(Node)), buf)
        dec.append([buf[i] for i in range(npairs)])
        if prob:
            lab = lib.svm_predict_probability(mp, ctypes.cast(nd, ctypes.POINTER(Node)), pbuf)
            probs.append([pbuf[i] for i in range(k)])
        pred.append(int(lab))
    if pred != cli_pred:
        raise RuntimeError("%s: predictions through ctypes differ from svm-predict" % name)
    params = {"kernel": ["linear", "poly", "rbf", "sigmoid"][par.kernel_type],
              "degree": par.degree, "gamma": par.gamma, "coef0": par.coef0, "C": par.C,
              "eps": par.eps, "shrinking": par.shrinking == 1, "probability": prob,
              "weights": {str(par.weight_label[i]): par.weight[i] for i in range(par.nr_weight)}}
    res = {"name": name, "data": data, "options": opts, "params": params, "labels": labels,
           "train": len(xtr), "test": len(xte), "pairs": pairs,
           "predicted": pred, "decision": dec}
    if prob:
        res["probability"] = probs
    return res


# The end-to-end case of cmd/bench (TestKernelSVMPredictsAsLibsvm): letter's
# first LETTER_TRAIN rows train, rows LETTER_TEST[0]..LETTER_TEST[1]-1 test,
# features scaled to [-1, 1] with the training rows' minimum and maximum;
# svm-train -c 16 -g 4, svm-predict's labels.
LETTER_TRAIN = 2000
LETTER_TEST = (15000, 16000)
LETTER_REF = os.path.join(HERE, "../../../../cmd/bench/testdata/svm_letter_ref.json")


def letter_case(tmp):
    path = os.path.join(DATA, "letter.csv.gz")
    with gzip.open(path, "rt") as f:
        rows = list(csv.reader(f))[1:]
    x = [[float(v) for v in r[:-1]] for r in rows]
    names = sorted(set(r[-1] for r in rows))
    y = [names.index(r[-1]) + 1 for r in rows]
    d = len(x[0])
    lo = [min(r[j] for r in x[:LETTER_TRAIN]) for j in range(d)]
    hi = [max(r[j] for r in x[:LETTER_TRAIN]) for j in range(d)]

    def scale(r):
        return [0.0 if hi[j] == lo[j] else -1.0 + (1.0 - -1.0) * (r[j] - lo[j]) / (hi[j] - lo[j])
                for j in range(d)]
    ftr, fte = os.path.join(tmp, "train"), os.path.join(tmp, "test")
    write(ftr, [scale(r) for r in x[:LETTER_TRAIN]], y[:LETTER_TRAIN])
    test = range(*LETTER_TEST)
    write(fte, [scale(x[i]) for i in test], [y[i] for i in test])
    fmodel, fout = os.path.join(tmp, "model"), os.path.join(tmp, "out")
    subprocess.run(["svm-train", "-c", "16", "-g", "4", ftr, fmodel], check=True, capture_output=True)
    subprocess.run(["svm-predict", fte, fmodel, fout], check=True, capture_output=True)
    with open(fout) as f:
        pred = [int(float(l)) for l in f.read().split()]
    with open(fmodel) as f:
        label = [int(v) for v in next(l for l in f if l.startswith("label")).split()[1:]]
    return {"train": LETTER_TRAIN, "test": list(LETTER_TEST), "C": 16, "gamma": 4,
            "labels": label, "predicted": pred}


def main():
    version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libsvm-tools"],
                             capture_output=True, text=True).stdout
    out = {"libsvm_tools": version, "cases": []}
    with tempfile.TemporaryDirectory() as tmp:
        for name, data, opts in CASES:
            out["cases"].append(run_case(name, data, opts, tmp))
        letter = letter_case(tmp)
    with open(os.path.join(HERE, "libsvm_ref.json"), "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    letter["libsvm_tools"] = version
    with open(LETTER_REF, "w") as f:
        json.dump(letter, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
