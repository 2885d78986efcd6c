"""``stepping-stones calibrate``: fit the heuristic's bidding model anew."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..engine import CONTRACTS
from .args import Subcommands, add_cluster_argument, command, positive, refuse, run_work, seed


def add_parser(sub: Subcommands) -> None:
    p = command(
        sub,
        "calibrate",
        run,
        help="fit the heuristic's bidding model from hands it plays (slow; for developers)",
        description="For every contract, deal HANDS hands, make a random seat declare it and let "
        "three heuristic seats play it out (with --declarer expert: an expert declares against two "
        "heuristic seats); fit the weight of each hand feature by least squares and write the model "
        "(by default over the one the package uses for that declarer).",
    )
    p.add_argument("--hands", type=positive, default=700, help="hands per contract (default 700)")
    p.add_argument("--seed", type=seed, default="1", help="seed of the deals and the play (default 1)")
    p.add_argument(
        "--samples",
        type=positive,
        default=24,
        help="layouts the card play samples per decision (the heuristic's own setting)",
    )
    p.add_argument(
        "--declarer",
        choices=("heuristic", "expert"),
        default="heuristic",
        help="level of the declarer's seat, the defenders being heuristic (default heuristic: "
        "model.json; expert: expert_model.json, the model the expert values its own hands with)",
    )
    p.add_argument("--workers", type=positive, default=2, help="processes (default 2; not with --cluster)")
    p.add_argument(
        "--output",
        type=Path,
        help="where to write the model (default: the package's model.json, or expert_model.json "
        "with --declarer expert)",
    )
    add_cluster_argument(p, "contract's hands")


def run(args: argparse.Namespace) -> int:
    from ..ai.model import model_path
    from ..lab.calibrate import fit
    from ..storage.files import atomic_write
    from ..storage.safety import escape

    model = run_work(
        "calibrate",
        len(CONTRACTS),
        "contracts",
        args.cluster,
        lambda runner, advance: fit(args.hands, args.seed, args.samples, args.workers, advance, runner, args.declarer),
        timeout=args.cluster_timeout,
    )
    for cid, m in model.contracts.items():
        print(f"{cid:16} mean {m.random_hand_mean:5.2f} sd {m.random_hand_sd:4.2f}  fit error {m.sigma:4.2f}")
    output = args.output or model_path(args.declarer)
    try:
        atomic_write(output, model.to_json())
    except OSError as exc:
        return refuse(f"calibrate: cannot write {escape(str(output))}: {exc.strerror}")
    print(f"wrote {output}")
    return 0
