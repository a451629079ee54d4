"""Element-data questions: keys from the mendeleev snapshot, confirmed by the rule-based solver."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from core.records import Difficulty, Subject
from kb.elements import ELEMENTS_FILE, ElementData, load_element_data
from kb.syllabus import Syllabus
from pipeline.generate.elements import element_drafts, element_option, spin_only_moment
from pipeline.verify.element_solver import (
    aufbau,
    element_answer,
    ion_configuration,
    parse_configuration,
    unpaired,
)
from pipeline.verify.gate import judged, solver_view
from tests.conftest import DATA_DIR


@pytest.fixture(scope="module")
def data() -> ElementData:
    return load_element_data(DATA_DIR)


def _all_drafts(data: ElementData, syllabus: Syllabus):
    for d in Difficulty:
        for _, stream in element_drafts(data, Subject.CHEMISTRY, d, syllabus):
            yield from stream


@pytest.mark.parametrize("z", [7, 24, 26, 29, 50])
def test_the_snapshot_is_what_the_build_script_reads_from_mendeleev(z: int) -> None:
    pytest.importorskip("mendeleev", reason="mendeleev is a dev dependency (make test installs it)")
    from scripts.build_element_data import element_record

    raw = json.loads((DATA_DIR / ELEMENTS_FILE).read_text(encoding="utf-8"))
    assert raw["elements"][z - 1] == element_record(z)


def test_the_solvers_aufbau_rule_matches_the_data_through_krypton(data) -> None:
    for z in range(1, 37):
        assert aufbau(z) == dict(data.by_z[z].configuration), data.by_z[z].symbol


def test_the_solvers_ion_rule_matches_the_data_for_every_3d_ion(data) -> None:
    ions = [(e, i) for e in data.elements for i in e.ions]
    assert len(ions) >= 15
    for e, ion in ions:
        assert ion_configuration(e.z, ion.charge) == dict(ion.configuration)
        assert unpaired(dict(ion.configuration)) == ion.unpaired


def test_every_element_question_is_sound_and_its_key_matches_the_data(data, syllabus) -> None:
    drafts = list(_all_drafts(data, syllabus))
    kinds = Counter(d.provenance.template_id for d in drafts)
    assert set(kinds) == {
        "elements.trend",
        "elements.configuration",
        "elements.ion-unpaired",
        "elements.ion-moment",
    }
    by_symbol = {e.symbol: e for e in data.elements}
    for d in drafts:
        c = d.content
        texts = [o.text for o in c.options]
        assert len(set(texts)) == 4
        key = next(o.text for o in c.options if o.key == c.correct_key)
        params = dict(d.provenance.params)
        if d.provenance.template_id == "elements.trend":
            prop = {"ie1": "ie1_kj_mol", "en": "en_pauling", "radius": "atomic_radius_pm"}
            members = [by_symbol[t.split(", Z")[0].split("(")[1]] for t in texts]
            values = {element_option(e): getattr(e, prop[params["property"]]) for e in members}
            pick = max if params["extreme"] in ("highest", "largest") else min
            assert key == pick(values, key=values.__getitem__)
            assert len({e.period for e in members}) == 1 or len({e.group for e in members}) == 1
        elif d.provenance.template_id == "elements.configuration":
            e = data.by_z[int(params["z"])]
            assert f"Z = {e.z}" in c.stem_markdown
            assert parse_configuration(key) == dict(e.configuration)
        else:
            symbol, charge = params["ion"][:-2], int(params["ion"][-2])
            ion = next(i for i in by_symbol[symbol].ions if i.charge == charge)
            expected = (
                f"{spin_only_moment(ion.unpaired):.2f}"
                if d.provenance.template_id == "elements.ion-moment"
                else str(ion.unpaired)
            )
            assert key.strip("$").startswith(expected)


def test_the_solver_confirms_most_and_names_every_refusal(data, syllabus) -> None:
    outcomes: Counter[str] = Counter()
    for d in _all_drafts(data, syllabus):
        attempt, question = judged(d, element_answer(solver_view(d)))
        outcomes["accepted" if question else (attempt.rejection_reason or "").split(":")[0]] += 1
    assert outcomes["accepted"] >= 0.95 * sum(outcomes.values())
    assert set(outcomes) <= {"accepted", "solver_disagreed", "solver_abstained"}


def test_a_moved_key_and_a_missing_answer_are_refused(data, syllabus) -> None:
    for d in (
        next(s) for _, s in element_drafts(data, Subject.CHEMISTRY, Difficulty.MEDIUM, syllabus)
    ):
        c = d.content
        wrong = next(o.key for o in c.options if o.key != c.correct_key)
        moved = d.model_copy(update={"content": c.model_copy(update={"correct_key": wrong})})
        assert judged(moved, element_answer(solver_view(moved)))[1] is None
        right = next(o for o in c.options if o.key == c.correct_key)
        blanked = c.model_copy(
            update={
                "options": tuple(
                    o.model_copy(update={"text": "none of these"}) if o is right else o
                    for o in c.options
                )
            }
        )
        answer = element_answer(solver_view(d.model_copy(update={"content": blanked})))
        assert answer.choice is None, answer


def test_configuration_distractors_include_the_strict_aufbau_slip(data, syllabus) -> None:
    drafts = {
        int(dict(d.provenance.params)["z"]): d
        for d in _all_drafts(data, syllabus)
        if d.provenance.template_id == "elements.configuration"
    }
    chromium = drafts[24].content
    assert {o.text for o in chromium.options} >= {"[Ar] 3d⁵ 4s¹", "[Ar] 3d⁴ 4s²"}
    assert chromium.difficulty is Difficulty.MEDIUM
    assert drafts[7].content.difficulty is Difficulty.EASY
