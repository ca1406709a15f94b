"""`make bench LAYER=library` runs the servers on channels-redis's own layer, and its figures
get a section of their own: they never replace the site's layer's."""

from __future__ import annotations

from bench import report


def results(quick: bool, layer: str | None) -> dict:
    found = {"quick": quick, "date": "2026-11-26 10:00:00"}
    if layer is not None:
        found["channel_layer"] = layer
    return found


def test_the_command_and_the_section_name_the_layer():
    assert report.command(results(True, "library")) == "make bench QUICK=1 LAYER=library"
    assert report.command(results(False, "site")) == "make bench"
    assert report.command(results(True, None)) == "make bench QUICK=1"  # (an older run)
    assert report.mode(results(True, "library")) == "quick-library"
    assert report.mode(results(False, "pubsub")) == "full-pubsub"
    assert report.mode(results(True, "site")) == "quick"
    assert report.names(results(True, "library")) == "2026-11-26T1000-quick-library"


def test_a_run_on_the_librarys_layer_leaves_the_sites_figures(tmp_path, monkeypatch):
    doc = tmp_path / "performance.md"
    site = "<!-- bench:live:quick:start -->\nthe site's figures\n<!-- bench:live:quick:end -->"
    doc.write_text(f"# Performance\n\n{site}\n")
    monkeypatch.setattr(report, "DOC", doc)
    report.write_doc("the library's figures", results(True, "library"))
    report.write_doc("the library's figures, again", results(True, "library"))
    text = doc.read_text()
    assert site in text
    assert text.count("### The last `make bench QUICK=1 LAYER=library`") == 1
    assert "the library's figures, again\n<!-- bench:live:quick-library:end -->" in text
    assert "the library's figures\n" not in text
