"""Bidding model weights, written by ``python -m stepping_stones.ai.calibrate`` (--hands 700 --seed 1 --samples 12), with the card play of commit 579d0ae; do not edit by hand."""

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
 "contracts": {
  "win-no-trump": {
   "weights": [
    -2.5047,
    0.134,
    -0.061,
    0.0485,
    0.7957,
    0.187,
    0.2788,
    -0.4196,
    0.501,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0
   ],
   "sigma": 1.552,
   "random_hand_mean": 3.574,
   "random_hand_sd": 2.145,
   "hands": 700
  },
  "win-pick-trump": {
   "weights": [
    -1.5482,
    0.1825,
    0.007,
    0.0059,
    0.582,
    0.0589,
    0.0286,
    -0.3174,
    -0.3823,
    0.38,
    0.1903,
    0.1247,
    0.1019,
    0.3702
   ],
   "sigma": 0.941,
   "random_hand_mean": 3.464,
   "random_hand_sd": 1.783,
   "hands": 700
  },
  "lose-no-trump": {
   "weights": [
    -11.3245,
    -0.0774,
    -0.1153,
    0.2981,
    -0.2768,
    0.0445,
    -1.5639,
    -0.4902,
    0.5476,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0
   ],
   "sigma": 1.885,
   "random_hand_mean": 5.229,
   "random_hand_sd": 2.861,
   "hands": 700
  },
  "lose-pick-trump": {
   "weights": [
    -6.3429,
    -0.0984,
    -0.0287,
    0.1774,
    -0.0967,
    -0.3133,
    -1.4049,
    -0.5375,
    0.2787,
    0.3718,
    -0.0166,
    0.0178,
    0.2327,
    0.1124
   ],
   "sigma": 1.465,
   "random_hand_mean": 4.816,
   "random_hand_sd": 2.282,
   "hands": 700
  },
  "win-last-6": {
   "weights": [
    -0.3643,
    0.268,
    -0.0358,
    0.0035,
    0.4701,
    0.0188,
    -0.482,
    -0.151,
    -0.1016,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0
   ],
   "sigma": 1.369,
   "random_hand_mean": 1.984,
   "random_hand_sd": 1.718,
   "hands": 700
  },
  "may-trump": {
   "weights": [
    -1.4011,
    0.2147,
    -0.0169,
    -0.0055,
    0.5596,
    -0.0035,
    0.0667,
    -0.5573,
    -0.3604,
    0.4471,
    0.3171,
    0.0342,
    0.094,
    0.4449
   ],
   "sigma": 1.239,
   "random_hand_mean": 3.071,
   "random_hand_sd": 2.108,
   "hands": 700
  },
  "must-beat": {
   "weights": [
    -2.9048,
    0.0568,
    0.0019,
    0.1146,
    0.1059,
    -0.1476,
    -0.0074,
    0.3054,
    -0.4707,
    0.0,
    0.0,
    0.0,
    0.0,
    0.0
   ],
   "sigma": 1.49,
   "random_hand_mean": 3.943,
   "random_hand_sd": 1.923,
   "hands": 700
  }
 }
}
