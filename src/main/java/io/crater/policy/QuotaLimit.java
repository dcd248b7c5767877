package io.crater.policy;

/**
 * An account's quota for one resource, in milli-units: {@code guaranteed} is lent to others while idle and
 * taken back on demand; {@code max} caps how far the account may borrow.
 */
public record QuotaLimit(String resource, long guaranteed, long max) {
    public QuotaLimit {
        if (guaranteed < 0 || max < guaranteed) {
            throw new IllegalArgumentException("quota for " + resource + " needs 0 <= guaranteed <= max");
        }
    }
}
