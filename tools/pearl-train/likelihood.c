/* How likely a policy finds a schedule (likelihood.h). */
#include <stdio.h>

#include "likelihood.h"
#include "teacher.h"
#include "pearl/ppo.h"
#include "pearl/train.h"

int schedule_log_likelihood(pearl_env_program *p, const char *schedule,
			    const pearl_policy *policy, double *loglik,
			    char *err, size_t err_size)
{
	struct pearl_ppo_batch decisions;
	float logits[PEARL_PPO_MAX_ACTIONS], logp[PEARL_PPO_MAX_ACTIONS];
	float value;
	int k, r;

	*loglik = 0;
	pearl_ppo_batch_init(&decisions, PEARL_N_ACTIONS);
	r = teacher_record(p, schedule, &decisions, err, err_size);
	for (k = 0; r > 0 && k < decisions.n_steps; ++k) {
		const struct pearl_ppo_step *s = &decisions.steps[k];

		if (pearl_policy_eval(policy, s->graph, logits, &value, err,
				      err_size) < 0) {
			r = -1;
		} else if (pearl_masked_log_softmax(logp, logits, s->mask,
						    decisions.n_actions) < 0) {
			snprintf(err, err_size, "likelihood: the policy's "
				 "logits are not finite or the mask is empty");
			r = -1;
		} else {
			*loglik += logp[s->action];
		}
	}
	pearl_ppo_batch_clear(&decisions);
	return r < 0 ? -1 : r > 0;
}
