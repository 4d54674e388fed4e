//! What each build of the lab offers (issue 52 §6), read from the pages themselves, no browser:
//! the static site hides what needs the server (an estimate, a journal) and says so in words
//! written for it; the served pages hide those words.

/// The page `name` of the static site.
fn static_page(name: &str) -> String {
    damier_web::assets::static_site()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} is exported"))
        .1
}

#[test]
fn the_static_counting_page_offers_only_what_it_can_do() {
    let count = static_page("count.html");
    let head = &count[..count.find("</head>").expect("a head")];
    assert!(head.contains(".server-only { display: none !important; }"), "{head}");
    // The panels that need the server are marked, and the words for this build are there.
    let panel_of = |id: &str| {
        let at = count.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("#{id}"));
        let open = count[..at].rfind("class=\"panel").expect("inside a panel");
        count[open..at].to_string()
    };
    assert!(panel_of("estimate").starts_with("class=\"panel server-only\""), "{}", panel_of("estimate"));
    assert!(count.contains("<section class=\"server-only\">\n      <div class=\"panel\">\n        <h2>A long count's journal</h2>"));
    assert!(count.contains("<p class=\"lead static-only\">"));
    // The home page's card of the page says what runs in the browser.
    let home = static_page("index.html");
    assert!(home.contains("<p class=\"static-only\">q(n) counted in your browser, up to n = 18"), "the card");
    // The served build hides the static words.
    let style = static_page("style.css");
    assert!(style.contains(".static-only { display: none; }"));
}
