"""``frames/natural/_kozlov_frame.py``: Kozlov's natural equations against the vakonomic field in a frame."""

import pytest

import frames as fr


@pytest.mark.parametrize("model", ["nonholonomic_particle", "knife_edge"])
def test_kozlov_and_the_frame_field_agree(model):
    mdl = getattr(fr.models, model)()
    res = fr.compare_kozlov_with_frame(fr.VakonomicSystem(mdl.lagrangian, mdl.frame, mdl.m))
    assert res.holds
    assert all(e == 0 for e in res.frame_identity) and len(res.tangent_residuals) >= 1


def test_a_nonholonomic_system_is_refused():
    with pytest.raises(fr.errors.ArgumentError, match="compare_kozlov_with_frame: vk"):
        fr.compare_kozlov_with_frame(fr.models.knife_edge().nonholonomic())
