"""The type stubs describe the module that runs: the same public names, and for every
function and method the same parameters (names, kinds and defaults)."""

import ast
import inspect
import pathlib

import pytest

import damier

STUBS = pathlib.Path(damier.__file__).parent
# The package and each of its submodules (from `damier.__all__`: a new one is checked too).
MODULES = {"__init__": damier} | {
    name: getattr(damier, name) for name in damier.__all__ if inspect.ismodule(getattr(damier, name))
}


def stub_tree(name):
    return ast.parse((STUBS / f"{name}.pyi").read_text())


def stub_params(fn):
    args = fn.args
    out = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + args.defaults
    for a, d in zip(positional, defaults):
        out.append((a.arg, "POSITIONAL_OR_KEYWORD", None if d is None else ast.literal_eval(d)))
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append((a.arg, "KEYWORD_ONLY", None if d is None else ast.literal_eval(d)))
    return [p for p in out if p[0] != "self"]


def runtime_params(obj):
    sig = inspect.signature(obj)
    return [
        (p.name, p.kind.name, None if p.default is inspect.Parameter.empty else p.default)
        for p in sig.parameters.values()
        if p.name != "self"
    ]


def same_params(stub, runtime):
    """Equal, except that a default PyO3 shows as `...` (a named constant) matches any: those
    defaults are checked through the records in test_defaults_are_the_libraries."""
    if len(stub) != len(runtime):
        return False
    return all(
        s[:2] == r[:2] and (r[2] is Ellipsis or s[2] == r[2]) for s, r in zip(stub, runtime)
    )


def stub_default(module_name, function, parameter):
    for node in ast.walk(stub_tree(module_name)):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return dict((p[0], p[2]) for p in stub_params(node))[parameter]
    raise KeyError(function)


def test_defaults_are_the_libraries():
    factoring = damier.factor(15, seed=1)
    assert factoring["q"] == stub_default("__init__", "factor", "q")
    assert factoring["eps"] == stub_default("__init__", "factor", "eps")
    run = damier.automaton.run("cell", 4, seed=1)
    assert run["eps"] == stub_default("automaton", "run", "eps") == damier.automaton.DEFAULT_EPS
    # eta=None stands for DEFAULT_ETA on model 2, the one model that uses it.
    assert stub_default("automaton", "run", "eta") is None
    assert run["eta"] == damier.automaton.DEFAULT_ETA


@pytest.mark.parametrize("name", MODULES)
def test_stub_names_and_signatures(name):
    module = MODULES[name]
    tree = stub_tree(name)
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
            assert same_params(stub_params(node), runtime_params(getattr(module, node.name))), node.name
            assert ast.get_docstring(node), f"{name}.{node.name} has no docstring in the stub"
            assert getattr(module, node.name).__doc__, f"{name}.{node.name} has no docstring"
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            cls = getattr(module, node.name)
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.decorator_list:
                    target = cls if item.name == "__init__" else getattr(cls, item.name)
                    assert same_params(stub_params(item), runtime_params(target)), f"{node.name}.{item.name}"
                elif isinstance(item, ast.FunctionDef):
                    assert isinstance(getattr(cls, item.name), property.__mro__[0]) or hasattr(cls, item.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets)
        elif isinstance(node, ast.ImportFrom) and node.module is None:
            names.update(a.asname for a in node.names if a.asname)
    public = {n for n in dir(module) if not n.startswith("_")} | ({"__version__"} if name == "__init__" else set())
    # Model is a stub-only type alias.
    assert names - {"Model"} == public, (names, public)
