"""An import-linter contract of our own: no module imports one that imports it back,
anywhere in the project, across apps included.

import-linter's ``acyclic_siblings`` only compares siblings inside one package, so a cycle
between two apps (``competition.roster.forms`` → ``competition.models`` → ``competition.roster.forms``) slipped
past ``make lint``. This contract takes every import of the root packages, lazy ones
inside functions included, and fails on each strongly connected group of modules.
"""

from __future__ import annotations

import grimp
import networkx as nx
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


class NoModuleCyclesContract(Contract):
    type_name = "no_module_cycles"

    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        edges = nx.DiGraph()
        for module in graph.modules:
            if module.split(".")[0] not in self.session_options["root_packages"]:
                continue
            for imported in graph.find_modules_directly_imported_by(module):
                edges.add_edge(module, imported)
        groups = sorted(sorted(g) for g in nx.strongly_connected_components(edges) if len(g) > 1)
        cycles = [self._one_cycle(edges, group) for group in groups]
        return ContractCheck(kept=not cycles, metadata={"cycles": cycles})

    @staticmethod
    def _one_cycle(edges: nx.DiGraph, group: list[str]) -> list[str]:
        cycle = nx.find_cycle(edges.subgraph(group), source=group[0])
        return [a for a, _ in cycle] + [cycle[0][0]]

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error(" -> ".join(cycle), bold=True)
            output.new_line()
