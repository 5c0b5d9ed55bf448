"""The demo-v3 climb's step 18 against the warm-up on the held-out tasks, judged on the CPU with seeds 2-5 like the
warm-up's `results/climbs/demo-v2/judge-cpu/sft` (so every (task, seed) pair is judged on one device), on the 96
held-out tasks the demo preset had then (it has 384 now, the first 96 of them these): runs the step-18 sweep
(resumable; a finished one is only read), writes results/climbs/demo-v3/judge-cpu/stats_sft_vs_step18.json and prints
the report."""
from sqlforge import stats
from sqlforge.climb import climb_configs, heldout_tasks, judge_harness, resolve
from sqlforge.core import atomic_write_json, project_root
from sqlforge.sweeps import SweepConfig, run_sweep

root = project_root() / "results" / "climbs"
params = resolve("demo", heldout_n=96)
tasks, harness = heldout_tasks(params), judge_harness(climb_configs(params)[0])
run = run_sweep(SweepConfig(model="smollm2-135m", adapter="adapters/demo-v3/step18", suite=str(tasks), seeds=(2, 3, 4, 5),
                            harness=harness, batch_size=16, device="cpu", run="step18",
                            out="results/climbs/demo-v3/judge-cpu/step18"))
sft = stats.load_arm([root / "demo-v2" / "judge-cpu" / "sft" / "episodes.jsonl"], "sft")
step18 = stats.load_arm([run / "episodes.jsonl"], "step18")
result = stats.analyse(stats.task_clusters(tasks), sft, [step18])
atomic_write_json(root / "demo-v3" / "judge-cpu" / "stats_sft_vs_step18.json", result)
print(stats.report_text(result))
