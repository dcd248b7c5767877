package io.crater.platform;

/**
 * Seals values that must be read back later (a webhook's URL and signing secret) under the server's credentials
 * key. The credential feature implements it; features below it (notify) seal through it, so nothing climbs up to
 * the credential package. {@code purpose} names what the value belongs to and is bound to it: a value sealed for
 * one purpose does not open for another.
 */
public interface Sealing {

    String seal(String purpose, String value);

    String open(String purpose, String sealed);
}
