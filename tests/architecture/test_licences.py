"""Code taken over from another project carries that project's licence notice."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_matching_code_taken_from_networkx_carries_its_bsd_notice():
    source = (ROOT / "pairing" / "engine" / "weighted_matching.py").read_text()
    notice = (ROOT / "LICENSES" / "networkx.txt").read_text()
    assert "LICENSES/networkx.txt" in source and "NetworkX Developers" in source
    assert "3-clause BSD license" in notice
    assert "Redistributions of source code must retain the above copyright" in notice
