package io.crater.credential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sealing credential values: they open again only under the same key, owner and name, and unaltered. */
class CredentialCipherTest {

    private final CredentialCipher cipher = new CredentialCipher(CredentialCipher.newKey());

    @Test
    void aSealedValueOpensToTheSameText() {
        String value = "hf_AbC123/ünïcode\nsecond line";
        String sealed = cipher.seal(42, "hf", value);
        assertThat(sealed).startsWith("v1:" + cipher.keyId() + ":").doesNotContain(value);
        assertThat(cipher.open(42, "hf", sealed)).isEqualTo(value);
    }

    @Test
    void theSameValueSealsDifferentlyEachTime() {
        assertThat(cipher.seal(42, "hf", "same")).isNotEqualTo(cipher.seal(42, "hf", "same"));
    }

    @Test
    void aTamperedCiphertextIsRefused() {
        String sealed = cipher.seal(42, "hf", "hf_secret_value");
        byte[] raw = Base64.getDecoder().decode(sealed.substring(sealed.lastIndexOf(':') + 1));
        for (int at : new int[] {0, 12, raw.length - 1}) {
            byte[] bent = raw.clone();
            bent[at] ^= 0x01;
            String tampered = sealed.substring(0, sealed.lastIndexOf(':') + 1)
                    + Base64.getEncoder().encodeToString(bent);
            assertThatThrownBy(() -> cipher.open(42, "hf", tampered))
                    .as("bit flipped at byte %d", at)
                    .isInstanceOf(CredentialCipher.Unreadable.class)
                    .hasMessage("credential 'hf' is damaged or does not belong here");
        }
    }

    @Test
    void aValueMovedToAnotherOwnerOrNameDoesNotOpen() {
        String sealed = cipher.seal(42, "hf", "hf_secret_value");
        assertThatThrownBy(() -> cipher.open(43, "hf", sealed)).isInstanceOf(CredentialCipher.Unreadable.class);
        assertThatThrownBy(() -> cipher.open(42, "wandb", sealed)).isInstanceOf(CredentialCipher.Unreadable.class);
    }

    @Test
    void anotherKeyIsNamedAsSuch() {
        CredentialCipher other = new CredentialCipher(CredentialCipher.newKey());
        String sealed = cipher.seal(42, "hf", "v");
        assertThatThrownBy(() -> other.open(42, "hf", sealed))
                .isInstanceOf(CredentialCipher.Unreadable.class)
                .hasMessage("credential 'hf' was sealed with key " + cipher.keyId() + ", this server holds key "
                        + other.keyId());
    }

    @Test
    void truncatedOrForeignTextIsRefused() {
        assertThatThrownBy(() -> cipher.open(42, "hf", "hf_plain_value"))
                .hasMessage("credential 'hf' is not a sealed value");
        assertThatThrownBy(() -> cipher.open(42, "hf", "v1:" + cipher.keyId() + ":AAAA"))
                .hasMessage("credential 'hf' is damaged");
    }

    @Test
    void onlyA256BitKeyIsTaken() {
        assertThatThrownBy(() -> new CredentialCipher(new byte[16]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the credentials key must be 32 bytes");
    }

    @Test
    void theKeyFileIsMadeOnceOnlyForItsOwner(@TempDir Path home) throws Exception {
        Path file = home.resolve("sub/credentials.key");
        byte[] first = CredentialKeys.fromFile(file);
        assertThat(first).hasSize(32);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(CredentialKeys.fromFile(file)).isEqualTo(first);
        Files.writeString(file, "too-short");
        assertThatThrownBy(() -> CredentialKeys.fromFile(file)).isInstanceOf(IllegalStateException.class);
    }
}
