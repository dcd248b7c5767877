package io.crater.interactive;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the app proxy lets through in paths and cookies, as tables. */
class AppHeadersTest {

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "/lab, true",
        "/lab/tree/a%20b.ipynb, true",
        "/port/6006/, true",
        "/api/kernels?x=1, true",
        "/../etc/passwd, false",
        "/lab/../../x, false",
        "/lab/./x, false",
        "/%2e%2e/x, false",
        "/lab%2Fx, false",
        "/lab%5Cx, false",
        "/lab\\x, false",
        "/a%00b, false",
        "/%zz, false",
        "lab, false"
    })
    void pathsAreRefusedUnlessWhatTheAppSeesIsWhatWasChecked(String path, boolean safe) {
        assertThat(AppHeaders.safe(path)).isEqualTo(safe);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "_xsrf=abc; Path=/lab | true",
                "username-127-0-0-1=x; HttpOnly | true",
                "_xsrf=abc; Domain=apps.localhost | false",
                "_xsrf=abc; domain=.example.org; Path=/ | false",
                "crater_session=x; Path=/ | false",
                "crater_app=x | false"
            })
    void anAppsCookieStaysOnItsOwnOrigin(String setCookie, boolean kept) {
        assertThat(AppHeaders.hostOnly(setCookie)).isEqualTo(kept);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "crater_app=t; _xsrf=abc | _xsrf=abc",
                "_xsrf=abc; crater_session=s; theme=dark | _xsrf=abc; theme=dark",
                "crater_app=t | ''",
                "a=1 | a=1"
            })
    void cratersCookiesNeverReachTheApp(String header, String forwarded) {
        assertThat(AppHeaders.cookiesWithout(header)).isEqualTo(forwarded);
    }
}
