"""``mindspore_hl.dataset.audio`` (``mindspore.dataset.audio``): spectrograms, mel scales, MFCC and waveform
effects, with torchaudio's definitions (as MindSpore's kernels follow them), computed with NumPy."""
from ._spectral import (WindowType, BorderType, NormType, NormMode, MelType, ScaleType, Spectrogram, MelScale,
                        MelSpectrogram, AmplitudeToDB, DBToAmplitude, MFCC, melscale_fbanks, linear_fbanks,
                        create_dct)
from ._effects import (MuLawEncoding, MuLawDecoding, Gain, Vol, GainType, DCShift, ComputeDeltas, Angle,
                       ComplexNorm, Magphase, Fade, FadeShape)

from ._filters import (LFilter, Filtfilt, Biquad, LowpassBiquad, HighpassBiquad, BandpassBiquad, BandrejectBiquad,
                       AllpassBiquad, BandBiquad, BassBiquad, TrebleBiquad, EqualizerBiquad, DeemphBiquad, RiaaBiquad,
                       LFCC, SpectralCentroid, Contrast, MaskAlongAxis, MaskAlongAxisIID, TimeMasking,
                       FrequencyMasking, DensityFunction, Interpolation, ResampleMethod)

__all__ = ["WindowType", "BorderType", "NormType", "NormMode", "MelType", "ScaleType", "Spectrogram", "MelScale",
           "MelSpectrogram", "AmplitudeToDB", "DBToAmplitude", "MFCC", "melscale_fbanks", "linear_fbanks",
           "create_dct", "MuLawEncoding", "MuLawDecoding", "Gain", "Vol", "GainType", "DCShift", "ComputeDeltas",
           "Angle", "ComplexNorm", "Magphase", "Fade", "FadeShape", "LFilter", "Filtfilt", "Biquad", "LowpassBiquad",
           "HighpassBiquad", "BandpassBiquad", "BandrejectBiquad", "AllpassBiquad", "BandBiquad", "BassBiquad",
           "TrebleBiquad", "EqualizerBiquad", "DeemphBiquad", "RiaaBiquad", "LFCC", "SpectralCentroid", "Contrast",
           "MaskAlongAxis", "MaskAlongAxisIID", "TimeMasking", "FrequencyMasking", "DensityFunction",
           "Interpolation", "ResampleMethod"]
