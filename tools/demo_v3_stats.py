"""Paired held-out comparison of the demo-v3 climb's step 18 with the warm-up, on the CPU judge's seeds 2-5 (both arms
judged on this machine's CPU, so every (task, seed) pair is judged on one device). Writes
results/climbs/demo-v3/judge-cpu/stats_sft_vs_step18.json and prints the report."""
from sqlforge import stats
from sqlforge.climb import heldout_tasks, resolve
from sqlforge.core import atomic_write_json, project_root

root = project_root() / "results" / "climbs"
sft = stats.load_arm([root / "demo" / "judge-cpu" / "sft" / "episodes.jsonl"], "sft")
step18 = stats.load_arm([root / "demo-v3" / "judge-cpu" / "step18" / "episodes.jsonl"], "step18")
result = stats.analyse(stats.task_clusters(heldout_tasks(resolve("demo"))), sft, [step18])
atomic_write_json(root / "demo-v3" / "judge-cpu" / "stats_sft_vs_step18.json", result)
print(stats.report_text(result))
