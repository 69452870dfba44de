/*
 * imitation_fit.c - imitation's epochs: the policy trained on the recorded
 * decisions, judged on the held-out ones and programs after every epoch,
 * and the epoch kept (imitation_fit.h).
 */
#include "imitation_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "best_epoch.h"
#include "held_out_speed.h"
#include "kind_recall.h"
#include "label_conflicts.h"
#include "pearl/clock.h"
#include "pearl/file.h"
#include "pearl/imitation.h"
#include "pearl/train.h"
#include "weight_average.h"

/* The held-out score of `policy` by --imitate-select: its held-out loss
 * (`vloss`, given), or minus the log of its greedy schedules' geomean
 * speedup on the held-out programs, measured now into *speed (one line on
 * stderr for epoch `epoch`: its number, or "mean"). 0, or -1 with a
 * message in err. */
static int held_out_score(pearl_policy *policy,
			  const struct imitation_data *d,
			  const struct options *o, const char *epoch,
			  double vloss, struct held_out_speed *speed,
			  double *score, double t0, char *err,
			  size_t err_size)
{
	speed->geomean = NAN;
	*score = vloss;
	if (!o->imitate_select_speed)
		return 0;
	if (held_out_speed_measure(d->env, d->programs, policy, &o->agent,
				   epoch, d->select_csv, speed, err,
				   err_size) < 0)
		return -1;
	fflush(d->select_csv);
	*score = -log(speed->geomean);
	fprintf(stderr,
		"pearl-train: imitation epoch %s: held-out greedy geomean "
		"%.4fx on %d programs (%d did not run; %d of %d measurements "
		"from the memo); %.0fs\n",
		epoch, speed->geomean, speed->programs, speed->failed,
		speed->memo_hits, speed->queries, pearl_now() - t0);
	return 0;
}

/* How the policy does on the held-out decisions and programs: the loss
 * and accuracy of all decisions, the loss of the imitated and of the
 * distilled ones apart, the greedy geomean (NaN unless --imitate-select
 * speed) and the score the epoch is kept by (lower is better). */
struct held_out_epoch {
	double loss, accuracy, loss_imitated, loss_distilled;
	double score;
	struct held_out_speed speed;
};

/* Fills *h for the policy as it is now, called `epoch` (a number, or
 * "mean"). 0, or -1 with a message in err. */
static int held_out_epoch_measure(pearl_policy *policy,
				  const struct imitation_data *d,
				  const struct options *o, const char *epoch,
				  struct held_out_epoch *h, double t0,
				  char *err, size_t err_size)
{
	struct pearl_imitation_score v[pearl_imitation_n_parts];

	if (pearl_imitation_evaluate_parts(policy, &d->val, v, err,
					   err_size) < 0)
		return -1;
	h->loss = v[pearl_imitation_all].loss;
	h->accuracy = v[pearl_imitation_all].accuracy;
	h->loss_imitated = v[pearl_imitation_actions].loss;
	h->loss_distilled = v[pearl_imitation_targets].loss;
	return held_out_score(policy, d, o, epoch, h->loss, &h->speed,
			      &h->score, t0, err, err_size);
}

/* The held-out figures of a run that holds nothing out: all NaN. */
static const struct held_out_epoch no_held_out = {NAN, NAN, NAN, NAN,
						  NAN, {NAN, 0, 0, 0, 0}};

/* One row of imitate-epochs.csv: epoch `epoch` (a number, or "mean"), its
 * training loss and accuracy (NaN for the mean, which no pass trained)
 * and its held-out figures h (no_held_out when nothing is held out). */
static void epoch_row(FILE *ecsv, const char *epoch, double loss, double acc,
		      const struct held_out_epoch *h)
{
	fprintf(ecsv, "%s,%.5f,%.4f,%.5f,%.4f,%.5f,%.5f,%.5f\n", epoch, loss,
		acc, h->loss, h->accuracy, h->loss_imitated,
		h->loss_distilled, h->speed.geomean);
	fflush(ecsv);
}

/* With --imitate-average, puts the mean of the epochs' weights into the
 * policy and scores it on the held-out set as the epoch "mean" (a row of
 * ecsv), beside the best single epoch (`best`, for the log only). 0, or
 * -1 with a message in err. */
static int keep_mean(pearl_policy *policy, const struct weight_average *avg,
		     const struct imitation_data *d, const struct options *o,
		     const struct best_epoch *best, FILE *ecsv, double t0,
		     char *err, size_t err_size)
{
	struct held_out_epoch h;

	weight_average_apply(avg);
	if (d->val.n_steps == 0) {
		epoch_row(ecsv, "mean", NAN, NAN, &no_held_out);
		fprintf(stderr, "pearl-train: imitation keeps the mean of "
				"epochs %d-%d\n",
			avg->first, avg->last);
		return 0;
	}
	if (held_out_epoch_measure(policy, d, o, "mean", &h, t0, err,
				   err_size) < 0)
		return -1;
	epoch_row(ecsv, "mean", NAN, NAN, &h);
	if (o->imitate_select_speed)
		fprintf(stderr,
			"pearl-train: imitation keeps the mean of epochs "
			"%d-%d (held-out greedy geomean %.4fx; loss %.4f, "
			"accuracy %.3f; the best single epoch, %d, had "
			"%.4fx)\n",
			avg->first, avg->last, h.speed.geomean, h.loss,
			h.accuracy, best->epoch, exp(-best->score));
	else
		fprintf(stderr,
			"pearl-train: imitation keeps the mean of epochs "
			"%d-%d (held-out loss %.4f, accuracy %.3f; the best "
			"single epoch, %d, had loss %.4f)\n",
			avg->first, avg->last, h.loss, h.accuracy,
			best->epoch, best->score);
	return 0;
}

/* With --imitate-save-epochs, writes the policy as it is after epoch
 * `epoch` (0: before the first) to DIR/epoch-<epoch>.bin. 0, or -1 with a
 * message in err. */
static int save_epoch(const pearl_policy *policy, const struct options *o,
		      int epoch, char *err, size_t err_size)
{
	char name[32];
	char *path;
	int rc;

	if (!o->imitate_save_epochs)
		return 0;
	snprintf(name, sizeof(name), "epoch-%d.bin", epoch);
	path = pearl_path_join(o->out, name);
	if (!path) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	rc = pearl_policy_save_file(policy, path, err, err_size);
	free(path);
	return rc;
}

/* The epochs of imitation, one line each in ecsv, keeping the parameters
 * of the best held-out epoch by --imitate-select (the held-out decisions
 * are evaluated before the first, as epoch 0, into best), or with
 * --imitate-average (avg not NULL) the mean of the epochs' from that one
 * on. The held-out loss is also given for the imitated decisions
 * (actions) and the distilled ones (distributions) apart: how well the
 * policy learns the measured schedules, and how much it keeps of the
 * teacher. 0, or -1 with a message in err. */
static int imitation_epochs(pearl_policy *policy, pearl_adam *adam,
			    const struct imitation_data *d,
			    const struct options *o, uint64_t *rng,
			    FILE *ecsv, struct best_epoch *best,
			    struct weight_average *avg, double t0, char *err,
			    size_t err_size)
{
	int epoch, held_out = d->val.n_steps > 0;

	for (epoch = 1; epoch <= o->imitate_epochs; ++epoch) {
		struct held_out_epoch h = no_held_out;
		double loss, acc;
		char label[16];

		snprintf(label, sizeof(label), "%d", epoch);
		if (pearl_imitation_epoch(policy, adam, &d->train,
					  o->ppo.minibatch, rng, &loss, &acc,
					  err, err_size) < 0 ||
		    save_epoch(policy, o, epoch, err, err_size) < 0)
			return -1;
		if (held_out && held_out_epoch_measure(policy, d, o, label, &h,
						       t0, err, err_size) < 0)
			return -1;
		epoch_row(ecsv, label, loss, acc, &h);
		if (held_out) /* early stopping */
			best_epoch_offer(best, epoch, h.score);
		if (avg && epoch >= o->imitate_average)
			weight_average_add(avg, epoch);
		if (epoch == 1 || epoch % 5 == 0 || epoch == o->imitate_epochs)
			fprintf(stderr,
				"pearl-train: imitation epoch %d/%d: loss "
				"%.4f, accuracy %.3f; held-out loss %.4f "
				"(imitated %.4f, distilled %.4f), "
				"accuracy %.3f; %.0fs\n",
				epoch, o->imitate_epochs, loss, acc, h.loss,
				h.loss_imitated, h.loss_distilled, h.accuracy,
				pearl_now() - t0);
	}
	if (avg)
		return keep_mean(policy, avg, d, o, best, ecsv, t0, err,
				 err_size);
	if (held_out) {
		best_epoch_restore(best);
		if (o->imitate_select_speed)
			fprintf(stderr, "pearl-train: imitation keeps epoch "
					"%d (held-out greedy geomean %.4fx)\n",
				best->epoch, exp(-best->score));
		else
			fprintf(stderr, "pearl-train: imitation keeps epoch "
					"%d (held-out loss %.4f)\n",
				best->epoch, best->score);
	}
	return 0;
}

/* One line on stderr: how many of the training decisions' actions
 * `policy` picks (the imitated ones alone: the distilled ones learn a
 * distribution), beside the most any policy could (label_conflicts.h) on
 * the first call (`when` "before" or "after" imitation's epochs). With
 * the ceiling high and the accuracy low the fit underfits; with both low
 * the features tell states with different targets apart too rarely.
 * Then one line per kind of action imitated (kind_recall.h).
 * 0, or -1 with a message in err. */
static int training_fit_line(const pearl_policy *policy,
			     const struct imitation_data *d, const char *when,
			     char *err, size_t err_size)
{
	struct pearl_imitation_score score[pearl_imitation_n_parts];
	const struct pearl_imitation_score *act;
	struct label_conflicts c;
	struct kind_recall kinds;

	if (d->train.n_steps < 1)
		return 0;
	if (label_conflicts_count(&d->train, &c, err, err_size) < 0 ||
	    pearl_imitation_evaluate_parts(policy, &d->train, score, err,
					   err_size) < 0 ||
	    kind_recall_measure(policy, &d->train, &kinds, err, err_size) < 0)
		return -1;
	act = &score[pearl_imitation_actions];
	fprintf(stderr,
		"pearl-train: imitation %s its epochs: training accuracy on "
		"the %d imitated decisions %.3f (loss %.4f); they reach %d "
		"states, %d of them reached more than once, %d with different "
		"actions: no policy can pick more than %.3f of them\n",
		when, c.decisions, act->n ? act->accuracy : NAN,
		act->n ? act->loss : NAN, c.states, c.shared, c.conflicting,
		c.ceiling);
	kind_recall_print(stderr, "pearl-train:   imitated ", &kinds);
	return 0;
}

int imitation_fit(pearl_policy *policy, const struct imitation_data *d,
		  const struct options *o, uint64_t *rng, FILE *ecsv, double t0,
		  char *err, size_t err_size)
{
	struct pearl_adam_config acfg = pearl_adam_default_config();
	struct best_epoch best = {0};
	struct weight_average avg = {0};
	struct held_out_epoch start;
	pearl_adam *adam;
	size_t n_params;
	float *params;
	int rc = -1;

	acfg.lr = o->imitate_lr;
	acfg.max_grad_norm = o->max_grad_norm;
	acfg.weight_decay = o->imitate_weight_decay;
	params = pearl_policy_get_params(policy, &n_params);
	adam = pearl_adam_alloc(n_params, &acfg, err, err_size);
	if (!adam || best_epoch_init(&best, policy, INFINITY) < 0 ||
	    (o->imitate_average > 0 &&
	     weight_average_init(&avg, params, n_params) < 0)) {
		if (adam)
			snprintf(err, err_size, "out of memory");
		goto out;
	}
	fprintf(ecsv, "epoch,loss,accuracy,validation_loss,"
		      "validation_accuracy,validation_loss_imitated,"
		      "validation_loss_distilled,validation_speedup\n");
	if (save_epoch(policy, o, 0, err, err_size) < 0)
		goto out;
	if (d->val.n_steps > 0) {
		if (held_out_epoch_measure(policy, d, o, "0", &start, t0, err,
					   err_size) < 0)
			goto out;
		best.score = start.score;
		epoch_row(ecsv, "0", NAN, NAN, &start);
		fprintf(stderr,
			"pearl-train: imitation epoch 0 (the starting "
			"policy): held-out loss %.4f, accuracy %.3f\n",
			start.loss, start.accuracy);
	}
	if (training_fit_line(policy, d, "before", err, err_size) < 0)
		goto out;
	rc = imitation_epochs(policy, adam, d, o, rng, ecsv, &best,
			      o->imitate_average > 0 ? &avg : NULL, t0, err,
			      err_size);
	if (rc == 0)
		rc = training_fit_line(policy, d, "after", err, err_size);
out:
	weight_average_clear(&avg);
	free(best.copy);
	pearl_adam_free(adam);
	return rc;
}

