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
    -1.1658,
    0.0445,
    -0.0505,
    0.036,
    0.8406,
    -0.0187,
    0.0575,
    -0.2013,
    0.5758,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0
   ],
   "sigma": 1.472,
   "random_hand_mean": 3.396,
   "random_hand_sd": 2.058,
   "hands": 700
  },
  "win-pick-trump": {
   "weights": [
    -2.6284,
    0.1431,
    0.0144,
    0.0294,
    0.5498,
    0.0082,
    0.1627,
    -0.2875,
    -0.353,
    0.5471,
    0.2341,
    0.0404,
    0.0891,
    0.4125
   ],
   "sigma": 0.982,
   "random_hand_mean": 3.54,
   "random_hand_sd": 1.872,
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
    -7.8681,
    -0.0928,
    -0.0542,
    0.1873,
    -0.0429,
    -0.0556,
    -1.8453,
    -0.8562,
    0.3968,
    0.5734,
    0.0535,
    -0.0766,
    0.218,
    0.6044
   ],
   "sigma": 1.406,
   "random_hand_mean": 4.917,
   "random_hand_sd": 2.361,
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
    -2.5408,
    0.2002,
    -0.0674,
    0.0164,
    0.5284,
    0.0918,
    -0.9515,
    -0.087,
    -0.2272,
    0.3464,
    0.2552,
    0.1266,
    0.1253,
    0.1848
   ],
   "sigma": 1.228,
   "random_hand_mean": 3.021,
   "random_hand_sd": 2.041,
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
