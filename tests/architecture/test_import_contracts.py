"""The house's rules (docs/architecture.md): the engines are pure, and no module imports
another that imports it back, lazily or not. ``make lint`` runs import-linter's contracts
from pyproject.toml; these tests keep that list honest and check cycles module by module."""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp
import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "competition", "pairing", "members", "config")
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


def _contract(name_start: str) -> dict:
    return next(c for c in CONFIG["contracts"] if c["name"].startswith(name_start))


def _within(module: str, packages: list[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_every_module_of_the_shell_is_forbidden_to_the_engines(graph):
    pure = _contract("The rules are pure")
    sources, forbidden = pure["source_modules"], pure["forbidden_modules"]
    shell = [m for m in graph.modules if not _within(m, sources) and m not in PACKAGES
             and m not in ("competition.events", "competition.prizes", "competition.ratings",
                           "competition.season")]
    missing = [m for m in shell if not _within(m, forbidden)]
    assert missing == [], f"add these to the purity contract in pyproject.toml: {missing}"


def test_the_engines_import_nothing_but_each_other(graph):
    sources = _contract("The rules are pure")["source_modules"]
    outside = sorted(
        (m, imported)
        for m in graph.modules if _within(m, sources)
        for imported in graph.find_modules_directly_imported_by(m)
        if not _within(imported, sources)
    )
    assert outside == []


def test_no_module_imports_one_that_imports_it_back(graph):
    edges = nx.DiGraph(
        (m, imported)
        for m in graph.modules
        for imported in graph.find_modules_directly_imported_by(m)
    )
    cycles = [c for c in nx.simple_cycles(edges) if len(c) > 1]
    assert cycles == []


def test_a_lazy_import_inside_a_function_counts(graph):
    # CompetitionConfig.ready() imports the task module inside a function: the graph must
    # see it, or a cycle hidden that way would pass the test above.
    assert "competition.season.tasks" in graph.find_modules_directly_imported_by("competition.apps")


def _no_cycles_contract():
    from tests.architecture.contracts import NoModuleCyclesContract

    return NoModuleCyclesContract(
        name="no cycles", session_options={"root_packages": list(PACKAGES)}, contract_options={}
    )


def test_the_lint_contract_breaks_on_a_two_module_cycle_between_apps():
    graph = grimp.ImportGraph()
    for module in ("members", "members.accounts.forms", "competition", "competition.models", "competition.season.views"):
        graph.add_module(module)
    graph.add_import(importer="competition.season.views", imported="competition.models")
    graph.add_import(importer="members.accounts.forms", imported="competition.models")
    assert _no_cycles_contract().check(graph, verbose=False).kept

    graph.add_import(importer="competition.models", imported="members.accounts.forms")
    check = _no_cycles_contract().check(graph, verbose=False)
    assert not check.kept
    assert check.metadata["cycles"] == [["competition.models", "members.accounts.forms", "competition.models"]]


def test_the_lint_contracts_are_the_ones_make_lint_runs():
    assert "no_module_cycles: tests.architecture.contracts.NoModuleCyclesContract" in CONFIG["contract_types"]
    assert any(c["type"] == "no_module_cycles" for c in CONFIG["contracts"])
    services = _contract("A service never imports a task")
    assert {"members.tasks", "competition.ratings.tasks"} <= set(services["forbidden_modules"])


def _forbidden_contract(name_start: str):
    from importlinter.configuration import configure
    from importlinter.contracts.forbidden import ForbiddenContract

    configure()  # import-linter's own adapters (its timer), as ``lint-imports`` sets them

    options = _contract(name_start)
    return ForbiddenContract(
        name=options["name"],
        session_options={"root_packages": list(PACKAGES),
                         "include_external_packages": CONFIG["include_external_packages"]},
        contract_options={k: v for k, v in options.items() if k not in ("name", "type")},
    )


@pytest.mark.parametrize(("contract", "importer"), [
    ("The club is a layer below every feature", "members.clubs.context"),
    ("The club is a layer below every feature", "core.tenancy.scoping"),
    ("A person's account is below the season", "members.accounts.profile"),
])
def test_the_layer_contracts_break_on_an_import_back_up_the_house(contract, importer):
    """The house as it is keeps each contract; one import from the club layer (or the
    account) up into the season breaks it, as ``make lint`` would say."""
    assert _forbidden_contract(contract).check(grimp.build_graph(*PACKAGES, cache_dir=None), verbose=False).kept
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    graph.add_import(importer=importer, imported="competition.season.selectors")
    check = _forbidden_contract(contract).check(graph, verbose=False)
    assert not check.kept


MODELS_BELOW_MEMBERS = "The competition's models and audit trail are below the members app"


@pytest.mark.parametrize(("importer", "imported"), [
    ("competition.models.season", "members.models"),  # the membership, imported, not named
    ("competition.models.audit", "members.clubs.context"),  # the club default through members
    ("competition.audit", "members.clubs.addresses"),
])
def test_the_competitions_models_break_the_contract_on_an_import_of_members(importer, imported):
    """members imports the competition's models and audit trail (the accounts, the admin,
    the platform): an import of members back from them (the four that ran back up, issue 38)
    breaks the contract."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    assert _forbidden_contract(MODELS_BELOW_MEMBERS).check(graph, verbose=False).kept
    graph.add_import(importer=importer, imported=imported)
    assert not _forbidden_contract(MODELS_BELOW_MEMBERS).check(graph, verbose=False).kept


def test_the_members_app_imports_the_competitions_models():
    """The contract above is about a real pair of rooms: members does import the models
    and the audit trail, so an import back would close a loop of the two apps."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    imported = {m for importer in graph.find_descendants("members")
                for m in graph.find_modules_directly_imported_by(importer)}
    assert "competition.models" in imported and "competition.audit" in imported


def test_no_contract_ignores_an_import():
    """docs/architecture.md says nothing imports up the house: no contract may carry an
    exception (``ignore_imports``) that would let one through."""
    assert {c["name"]: c["ignore_imports"] for c in CONFIG["contracts"] if c.get("ignore_imports")} == {}


def test_core_names_no_app_not_even_as_a_type():
    """core types a person with Django's own user types: not even an import for mypy
    alone (``if TYPE_CHECKING:``, which the contracts leave out) reaches an app."""
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=False)
    above = ["competition", "pairing", "members", "config"]
    found = sorted(
        (importer, imported)
        for importer in graph.find_descendants("core")
        for imported in graph.find_modules_directly_imported_by(importer)
        if _within(imported, above)
    )
    assert found == []


def test_core_imports_no_app_at_run_time():
    """core is the bottom of the shell: no import that runs reaches an app above it (the
    contracts read the imports as this graph has them, type-only ones left out)."""
    assert CONFIG["exclude_type_checking_imports"] is True
    graph = grimp.build_graph(*PACKAGES, cache_dir=None, exclude_type_checking_imports=True)
    above = ["competition", "pairing", "members", "config"]
    found = sorted(
        (importer, imported)
        for importer in graph.find_descendants("core")
        for imported in graph.find_modules_directly_imported_by(importer)
        if _within(imported, above)
    )
    assert found == []
