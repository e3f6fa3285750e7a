"""The catalogue of benchmark systems (public door of ``frames/app/_models.py``).

Each constructor returns a validated :class:`Model`; ``catalogue()`` maps the names used by
``frames analyze NAME`` to the constructors.
"""

from .app._models import (
    Model,
    abelian_chaplygin,
    ball_on_rotating_table,
    carriage_section_data,
    catalogue,
    chaplygin_sleigh,
    charged_skate,
    get,
    knife_edge,
    nonholonomic_particle,
    rolling_coin_incline,
    rolling_disc,
    rolling_penny,
    two_wheeled_carriage,
    vertical_rolling_disk,
)

__all__ = [
    "Model",
    "carriage_section_data",
    "catalogue",
    "chaplygin_sleigh",
    "ball_on_rotating_table",
    "charged_skate",
    "abelian_chaplygin",
    "get",
    "knife_edge",
    "nonholonomic_particle",
    "rolling_coin_incline",
    "rolling_disc",
    "rolling_penny",
    "two_wheeled_carriage",
    "vertical_rolling_disk",
]
