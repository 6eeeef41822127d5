""""What is this?": resolve a pointing finger to the thing it points at, and ask when it is ambiguous.

hands (MediaPipe landmarks) -> geometry (pointing pose, the ray with its depth tilt) -> candidates
(labeler crops along the ray, OCR text regions, chess squares) -> resolve (scores, the first confident
hit, the clarification question, the centre-of-view fallback) -> service (models, `remember this`).
"""
