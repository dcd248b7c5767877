package io.crater.job;

import io.crater.platform.ApiException;
import io.crater.platform.Hashes;
import io.crater.platform.Json;
import io.crater.platform.Problem;
import java.util.List;

/** A submission's {@code Idempotency-Key} and the hash of what it asked (the account and the spec). */
record Idempotency(String key, String hash) {

    /** The key of a submission, null without one; 400 {@code InvalidIdempotencyKey} for a malformed key. */
    static Idempotency of(String key, JobViews.SubmitJob req, String accountHeader) {
        if (key == null) {
            return null;
        }
        if (key.isEmpty() || key.length() > 255 || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw ApiException.badRequest(
                    "InvalidIdempotencyKey",
                    "Idempotency-Key must be 1 to 255 visible ASCII characters",
                    List.of(new Problem.FieldError("Idempotency-Key", "1 to 255 visible ASCII characters")));
        }
        String account = accountHeader == null ? "" : accountHeader.trim();
        return new Idempotency(key, Hashes.sha256Hex(account + "\n" + Json.write(req)));
    }
}
