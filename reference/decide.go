package reference

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/model"
)

// Decide is the check-and-spend of one request: the idempotency lookup, the
// model's step (reset FR-5, check FR-3, spend FR-4), the ingest row and the
// idempotency record, all in one Store transaction. A busy store gives
// ErrBusy and never an allow.
func (r *Reference) Decide(ctx context.Context, req Request) (Decision, error) {
	if req.Bucket == "" {
		return Decision{}, errors.New("decide: empty bucket id")
	}
	var d Decision
	err := r.store.Update(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		d, err = r.decideTx(ctx, tx, req, r.clock.Now())
		return err
	})
	if err != nil {
		return Decision{}, fmt.Errorf("decide: %w", err)
	}
	return d, nil
}

func (r *Reference) decideTx(ctx context.Context, tx Tx, req Request, now time.Time) (Decision, error) {
	if req.IdempotencyKey != "" {
		rp, err := tx.Idempotency(ctx, req.IdempotencyKey, req.BodySHA256, now.Unix()-r.retentionSec())
		if err != nil {
			return Decision{}, fmt.Errorf("idempotency lookup: %w", err)
		}
		if rp.Found {
			return r.replay(ctx, tx, req, rp, now)
		}
	}
	md, err := r.step(ctx, tx, req.Bucket, model.Request{Cost: 1}, now)
	if err != nil {
		return Decision{}, err
	}
	d := Decision{Outcome: Limited, Status: 429, Limit: md.Limit, Remaining: md.Remaining, Reset: md.Reset, RetryAfter: md.RetryAfter,
		PenaltyUntil: md.PenaltyUntil}
	if !md.Allowed {
		return d, nil
	}
	d.Outcome, d.Status, d.RideID, d.Wait = Allowed, 200, newRideID(), md.Wait
	d.Body = acceptedBody(d.RideID)
	if err := tx.Ingest(ctx, Ride{ID: d.RideID, BodySHA256: req.BodySHA256, BodyBytes: req.BodyBytes, Received: now.Unix()}); err != nil {
		return Decision{}, fmt.Errorf("ingest: %w", err)
	}
	if req.IdempotencyKey == "" {
		return d, nil
	}
	rec := Record{BodySHA256: req.BodySHA256, Status: d.Status, Response: d.Body, Created: now.Unix()}
	if err := tx.PutIdempotency(ctx, req.IdempotencyKey, rec); err != nil {
		return Decision{}, fmt.Errorf("record idempotency: %w", err)
	}
	return d, nil
}

// replay answers a request whose key was seen before, with the bucket's
// current headers.
func (r *Reference) replay(ctx context.Context, tx Tx, req Request, rp Replay, now time.Time) (Decision, error) {
	md, err := r.step(ctx, tx, req.Bucket, model.Request{Cost: 0}, now)
	if err != nil {
		return Decision{}, err
	}
	d := Decision{Outcome: KeyReused, Status: 422, Limit: md.Limit, Remaining: md.Remaining, Reset: md.Reset}
	if rp.SameBody {
		d.Outcome, d.Status, d.Body = Replayed, rp.Status, rp.Response
	}
	return d, nil
}

// step runs the model on the bucket's stored state and stores the next one
// when the model asks.
func (r *Reference) step(ctx context.Context, tx Tx, bucket string, mr model.Request, now time.Time) (model.Decision, error) {
	st, err := tx.Bucket(ctx, bucket)
	if err != nil {
		return model.Decision{}, fmt.Errorf("read bucket: %w", err)
	}
	next, md := r.model.Step(st, mr, now)
	if md.Write {
		if err := tx.PutBucket(ctx, bucket, next); err != nil {
			return model.Decision{}, fmt.Errorf("write bucket: %w", err)
		}
	}
	return md, nil
}

func newRideID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	return hex.EncodeToString(b[:])
}

func acceptedBody(rideID string) []byte {
	return []byte(`{"status":"accepted","ride_id":"` + rideID + `"}`)
}
