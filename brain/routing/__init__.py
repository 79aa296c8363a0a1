"""Progressive routing: calibrated confidence and the tier a decision takes.

Public surface: `router` (`Router`, `RoutePlan`, `Candidate`, the tier and composition rules),
`calibration` (`Calibrator`, `HomeCalibration`: the weighted total -> P(route is right)).
"""
