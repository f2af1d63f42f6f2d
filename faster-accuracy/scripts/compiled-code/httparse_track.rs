//! httparse's parsers on its own benchmarks' requests, tracked by faster at every commit.

/// The request line and headers of `request`: how many bytes and headers were parsed.
#[faster::track(inputs = requests)]
fn parse_request(request: &[u8]) -> (usize, usize) {
    let mut headers = [httparse::EMPTY_HEADER; 16];
    let mut parsed = httparse::Request::new(&mut headers);
    match parsed.parse(request) {
        Ok(httparse::Status::Complete(length)) => (length, parsed.headers.len()),
        _ => (0, 0),
    }
}

/// The headers alone of `request` (after its request line).
#[faster::track(inputs = header_blocks)]
fn parse_headers(block: &[u8]) -> (usize, usize) {
    let mut headers = [httparse::EMPTY_HEADER; 16];
    match httparse::parse_headers(block, &mut headers) {
        Ok(httparse::Status::Complete((length, parsed))) => (length, parsed.len()),
        _ => (0, 0),
    }
}

const REQ_SHORT: &[u8] = b"\
GET / HTTP/1.0\r\n\
Host: example.com\r\n\
Cookie: session=60; user_id=1\r\n\r\n";

const REQ: &[u8] = b"\
GET /wp-content/uploads/2010/03/hello-kitty-darth-vader-pink.jpg HTTP/1.1\r\n\
Host: www.kittyhell.com\r\n\
User-Agent: Mozilla/5.0 (Macintosh; U; Intel Mac OS X 10.6; ja-JP-mac; rv:1.9.2.3) Gecko/20100401 Firefox/3.6.3 Pathtraq/0.9\r\n\
Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n\
Accept-Language: ja,en-us;q=0.7,en;q=0.3\r\n\
Accept-Encoding: gzip,deflate\r\n\
Accept-Charset: Shift_JIS,utf-8;q=0.7,*;q=0.7\r\n\
Keep-Alive: 115\r\n\
Connection: keep-alive\r\n\
Cookie: wp_ozh_wsa_visits=2; wp_ozh_wsa_visit_lasttime=xxxxxxxxxx; __utma=xxxxxxxxx.xxxxxxxxxx.xxxxxxxxxx.xxxxxxxxxx.xxxxxxxxxx.x; __utmz=xxxxxxxxx.xxxxxxxxxx.x.x.utmccn=(referral)|utmcsr=reader.livedoor.com|utmcct=/reader/|utmcmd=referral|padding=under256\r\n\r\n";

/// The benchmarks' requests, long and short.
fn requests() -> Vec<&'static [u8]> {
    vec![REQ, REQ_SHORT]
}

/// The same requests without their request line.
fn header_blocks() -> Vec<&'static [u8]> {
    requests()
        .into_iter()
        .map(|request| {
            let line_end = request.windows(2).position(|pair| pair == b"\r\n").unwrap();
            &request[line_end + 2..]
        })
        .collect()
}
