/*
 * held_out_speed.c - the geomean speedup of the greedy policy on the
 * held-out programs of an imitation set (held_out_speed.h).
 */
#include "held_out_speed.h"

#include <math.h>
#include <string.h>

#include "episode.h"

const char held_out_speed_csv_header[] =
    "epoch,program,speedup,status,schedule\n";

int held_out_speed_measure(pearl_env *env, const struct program_set *set,
			   const pearl_policy *policy,
			   const struct pearl_agent_options *opts,
			   const char *epoch, FILE *csv,
			   struct held_out_speed *out, char *err, size_t err_size)
{
	struct pearl_agent_options ao = *opts;
	double log_sum = 0;
	int i;

	memset(out, 0, sizeof(*out));
	ao.sample = 0;
	for (i = 0; i < set->n; ++i) {
		struct pearl_env_result base;
		struct episode_result res;

		if (!held_out_program(i))
			continue;
		if (pearl_env_time(env, set->p[i], "", &base, err,
				   err_size) < 0)
			return -1;
		if (base.status != PEARL_ENV_OK)
			continue;
		if (episode_run(env, set->p[i], policy, &ao,
				EPISODE_REWARD_FINAL, NULL, &res, err,
				err_size) < 0)
			return -1;
		out->programs++;
		out->queries += res.queries + 1;
		out->memo_hits += res.memo_hits + base.memo_hit;
		if (csv)
			fprintf(csv, "%s,%s,%.6f,%s,\"%s\"\n", epoch,
				pearl_env_program_name(set->p[i]),
				res.status == PEARL_ENV_OK ? res.speedup : 1.0,
				pearl_env_status_name(res.status),
				res.schedule);
		if (res.status != PEARL_ENV_OK) {
			out->failed++;
			continue; /* 1x: log 0 */
		}
		log_sum += log(res.speedup);
	}
	out->geomean = out->programs ? exp(log_sum / out->programs) : 1.0;
	return 0;
}
