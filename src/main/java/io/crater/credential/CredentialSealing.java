package io.crater.credential;

import io.crater.platform.Sealing;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * {@link Sealing} under the credentials key (AES-256-GCM, {@link CredentialCipher}). The purpose is the associated
 * data with owner 0, which no user has, so a value of another feature never opens as a user's credential.
 */
@ApplicationScoped
class CredentialSealing implements Sealing {

    @Inject
    CredentialKeys keys;

    @Override
    public String seal(String purpose, String value) {
        return keys.cipher().seal(0, purpose, value);
    }

    @Override
    public String open(String purpose, String sealed) {
        return keys.cipher().open(0, purpose, sealed);
    }
}
