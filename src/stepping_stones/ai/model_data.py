"""Bidding model weights, written by ``python -m stepping_stones.ai.calibrate`` (--hands 700 --seed 1 --samples 24); do not edit by hand."""

MODEL = {
 "features": [
  "bias",
  "side_tops",
  "side_lows",
  "side_strength",
  "side_high",
  "side_low",
  "voids",
  "singletons",
  "side_length",
  "trumps",
  "trump_tops",
  "trump_lows",
  "trump_strength",
  "short_with_trumps"
 ],
 "seed": 1,
 "samples": 24,
 "contracts": {
  "win-no-trump": {
   "weights": [
    -2.2812,
    0.082,
    -0.085,
    0.0507,
    0.8037,
    0.1602,
    0.4476,
    0.0367,
    0.1918,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0
   ],
   "sigma": 1.499,
   "random_hand_mean": 3.454,
   "random_hand_sd": 2.075,
   "hands": 700
  },
  "win-pick-trump": {
   "weights": [
    -2.305,
    0.1303,
    0.0389,
    0.0152,
    0.6861,
    0.0344,
    0.0033,
    -0.4558,
    -0.2882,
    0.4691,
    0.2197,
    0.1227,
    0.0985,
    0.5716
   ],
   "sigma": 0.966,
   "random_hand_mean": 3.533,
   "random_hand_sd": 1.902,
   "hands": 700
  },
  "lose-no-trump": {
   "weights": [
    -11.278,
    -0.0503,
    0.0309,
    0.2797,
    -0.0326,
    -0.0348,
    -1.3708,
    -0.5134,
    0.1497,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0
   ],
   "sigma": 1.868,
   "random_hand_mean": 5.121,
   "random_hand_sd": 2.788,
   "hands": 700
  },
  "lose-pick-trump": {
   "weights": [
    -7.6691,
    -0.0341,
    0.0159,
    0.1734,
    0.0171,
    -0.2164,
    -1.3491,
    -0.6166,
    0.3546,
    0.7601,
    -0.0724,
    -0.1508,
    0.2213,
    0.241
   ],
   "sigma": 1.383,
   "random_hand_mean": 5.173,
   "random_hand_sd": 2.364,
   "hands": 700
  },
  "win-last-6": {
   "weights": [
    -1.5378,
    0.2256,
    0.0177,
    0.0268,
    0.408,
    -0.0217,
    -1.1463,
    -0.0094,
    -0.0471,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0
   ],
   "sigma": 1.462,
   "random_hand_mean": 2.046,
   "random_hand_sd": 1.778,
   "hands": 700
  },
  "may-trump": {
   "weights": [
    -2.1294,
    0.2531,
    0.0009,
    0.0047,
    0.5588,
    0.035,
    -0.8999,
    -0.6693,
    -0.4606,
    0.3657,
    0.3427,
    0.151,
    0.1093,
    0.4683
   ],
   "sigma": 1.204,
   "random_hand_mean": 2.983,
   "random_hand_sd": 2.09,
   "hands": 700
  },
  "must-beat": {
   "weights": [
    -2.8459,
    0.1587,
    -0.0044,
    0.1122,
    0.0176,
    -0.1602,
    -0.137,
    0.1455,
    -0.2273,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0
   ],
   "sigma": 1.524,
   "random_hand_mean": 4.037,
   "random_hand_sd": 2.016,
   "hands": 700
  }
 }
}
