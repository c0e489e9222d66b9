#pragma once
// Hand-written pages for tst_structureddata (kept out of the test file: moc does not read raw strings with markup well).
#include <QByteArray>

namespace fixtures {

inline QByteArray page0()
{
    return R"(<html><head>
<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
  {"@type": "BreadcrumbList", "itemListElement": []},
  {"@type": ["Product", "Thing"], "name": "Kettle  K3", "sku": " K-3 ", "gtin13": "4006381333931",
   "brand": {"@type": "Brand", "name": "Acme"}, "mpn": "AC-K3",
   "offers": {"@type": "AggregateOffer", "lowPrice": "1.299,00", "priceCurrency": "EUR",
              "offers": [{"@type": "Offer", "availability": "http://schema.org/OutOfStock"}]}}]}
</script>
<script type="application/ld+json">[{"@type": "Organization", "name": "Shop"}]</script>
</head><body><p>text</p></body></html>)";
}

inline QByteArray page1()
{
    return R"(<script type="application/ld+json"><!--
{"@type": "http://schema.org/Product", "name": "A", "offers": [{"@type": "Offer", "price": 87.1,
 "priceSpecification": {"price": 80, "priceCurrency": "GBP"}}], "gtin": "4006381333932"}
--></script>)";
}

inline QByteArray page2()
{
    return R"(<html><body>
<div itemscope itemtype="https://schema.org/Product">
  <h1 itemprop="name">Chair <b>Oak</b></h1>
  <span itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">Woody</span></span>
  <meta itemprop="sku" content="CH-01">
  <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
    <span itemprop="price" content="49.90">49,90 €</span>
    <meta itemprop="priceCurrency" content="EUR">
    <link itemprop="availability" href="https://schema.org/InStock">
  </div>
</div>
<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Related</span>
  <span itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">5.00</span></span></div>
</body></html>)";
}

inline QByteArray page3()
{
    return R"(<html><head>
<meta property="og:title" content="Lamp L1"><meta property="product:price:amount" content="19.99">
<meta property="product:price:currency" content="USD"><meta property="og:availability" content="out of stock">
</head><body vocab="http://schema.org/">
<div typeof="schema:Product"><span property="schema:name">Lamp</span>
  <span property="schema:sku">L1</span>
  <div property="schema:offers" typeof="Offer"><span property="schema:price" content="21.50">$21.50</span></div>
</div></body></html>)";
}

} // namespace fixtures
