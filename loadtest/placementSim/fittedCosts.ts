// Written by `npx tsx loadtest/placementSim/calibrate.ts` from docs/results: do not edit by hand.
import type { CostFit } from "./costModel.js";

export const FITTED_COSTS: CostFit = {
  "model": {
    "cpu": {
      "perRoom": 1.663767309149467,
      "perGuard": 0.021571377727895313,
      "perClient": 0.13544644308697945
    },
    "lag": {
      "intercept": 0.6948151578347126,
      "perShare": 0.770480074376661,
      "perHeaviestShare": 16.917929599462916
    }
  },
  "fittedOn": {
    "files": 203,
    "upTo": "2026-11-27-06-10-3d04657-dirty-capacity-run1.json",
    "records": 320,
    "cpu": {
      "rSquared": 0.8949795584990431,
      "meanAbsErrorPercent": 5.7410535050948175
    },
    "lag": {
      "rSquaredLog": 0.6114547133067466,
      "rSquaredMs": 0.44838858987791075,
      "meanAbsErrorMs": 8.02649297263
    }
  }
};
