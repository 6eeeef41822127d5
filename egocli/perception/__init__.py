"""What batch ingest and live serve both do to sound and frames.

audio     the pipeline's rate, resampling, levels, silence trimming
vad       the streaming energy voice-activity detector
frames    which sampled frames are worth describing
describe  a kept frame into words (labeler, OCR, narrator)
image     the one decoder of camera images into BGR arrays
events    heard speech and described frames as log events
"""
