"""The errata found in the papers, keyed by catalogue model (beside the models).

Each entry is ``(id, one-line summary)``; every id is a heading ``### ID:`` of ``docs/errata.md``, where
the derivation that settles it is given (``tests/app/test_cli.py`` checks the correspondence). The report's
``errata`` section lists the entries of the model analysed.
"""

from __future__ import annotations

__all__ = ["ERRATA"]


#: Model name -> errata entries (ID, text) from docs/errata.md that concern it.
ERRATA: dict[str, tuple[tuple[str, str], ...]] = {
    "two-wheeled-carriage": (
        (
            "CM-1",
            "Crampin & Mestdag print [X1, X2] = (R²/2c)(sin θ X3 − cos θ X4); "
            "the library derives the opposite sign (and the four X_α^C(v_a) change sign).",
        ),
        (
            "CM-4",
            "p_a R^a_12 = −K(v1 − v2), not +K(v1 − v2); the verdict (consistent at φ = p iff l = 0) is unchanged.",
        ),
        ("CM-5", "the constant H of the special section is +(mR² + 2J2)/(2R), not −(mR² + 2J2)/(2R)."),
        ("CM-6", "X_1^C(L), X_2^C(L) and the nonholonomic Γ_1, Γ_2 are the negatives of the printed ones."),
        (
            "CdLMM-1",
            "Cortés et al.'s K1 (Example 6.7) is dimensionally inconsistent; with R³ → R⁴ it gives the special l.",
        ),
    ),
    "nonholonomic-particle": (
        ("CM-2", "the vakonomic field has −μ v2 X1^V (printed −μ q2) and +μ q1 v1 in the X3^V coefficient."),
        ("CM-3", "the tangent A is −(μ q1 v1 + v1 v2)/(1 + q1²) (printed (μ q1 v1 − v1 v2)/(1 + q1²))."),
    ),
    "rolling-penny": (
        ("CdLMM-2", "the printed final submanifold C_f1 of Example 6.6 is not contained in S_1."),
        ("CdLMM-3", "C_f2 and the multipliers p = 2θ̇(cos φ, sin φ) of Example 6.6 are not invariant (sign slip)."),
    ),
    "ball-on-rotating-table": (
        ("CdLMM-5", "the printed C_f2 = {ξ³ = Ω} of Example 6.8 is not contained in S_1; C_f1 is confirmed."),
    ),
    "rolling-coin-incline": (("PGG-6", "(96c) should read cos(Ωt + θ0), not cos(Ωt)."),),
    "charged-skate": (
        ("PGG-4", "(101b): p2 contains ½ Q B0 q¹ (a position), not q̇¹."),
        ("PGG-5", "(108a–b), (113a–b): the Ḃ0 terms multiply positions, not velocities."),
        ("PGG-7", "(122b): the sign of m q̇¹ q̇³ is +."),
        ("PGG-8", "(132), (133a–b): velocities q̇ where positions q are printed."),
    ),
}
