package io.crater.identity;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Access tokens already verified, so a request with a known token skips parsing and the RSA signature check. A
 * token's verification gives the same answer until it expires or the key that signed it is retired; both are checked
 * on every use. At most {@code capacity} tokens are kept: past that, the expired ones are forgotten, then all.
 */
final class VerifiedTokens {

    private record Verified(TokenService.TokenUser user, String kid, long expiresAt) {}

    private final int skewSeconds;
    private final int capacity;
    private final Map<String, Verified> tokens = new ConcurrentHashMap<>();

    VerifiedTokens(int skewSeconds, int capacity) {
        this.skewSeconds = skewSeconds;
        this.capacity = capacity;
    }

    /** Who the token speaks for, if it was verified, has not expired at {@code now} and its key is still known. */
    TokenService.TokenUser get(String token, long now, Predicate<String> keyKnown) {
        Verified v = tokens.get(token);
        if (v == null) {
            return null;
        }
        if (now > v.expiresAt() + skewSeconds || !keyKnown.test(v.kid())) {
            tokens.remove(token);
            return null;
        }
        return v.user();
    }

    void remember(String token, TokenService.TokenUser user, String kid, long expiresAt, long now) {
        if (tokens.size() >= capacity) {
            tokens.values().removeIf(old -> now > old.expiresAt() + skewSeconds);
            if (tokens.size() >= capacity) {
                tokens.clear();
            }
        }
        tokens.put(token, new Verified(user, kid, expiresAt));
    }

    int size() {
        return tokens.size();
    }
}
