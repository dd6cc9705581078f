// The FAQ's text pages (docs/product/help.md#faq), in the order the FAQ lists them.
export const FAQ_TOPICS = ['wallet', 'explorer', 'card', 'answers'];

/** Each topic's sections: a heading key and its step (or answer) keys. */
export const TOPIC_SECTIONS = {
  wallet: [
    { heading: 'faq-wallet-install', steps: 4 },
    { heading: 'faq-wallet-network', steps: 4 },
    { heading: 'faq-wallet-link', steps: 3 },
  ],
  explorer: [
    { heading: 'faq-explorer-find', steps: 4 },
    { heading: 'faq-explorer-read', steps: 3 },
  ],
  card: [
    { heading: 'faq-card-moonpay', steps: 5 },
    { heading: 'faq-card-transak', steps: 5 },
  ],
  answers: [
    { heading: 'faq-answer1-q', answer: 'faq-answer1-a' },
    { heading: 'faq-answer2-q', answer: 'faq-answer2-a' },
    { heading: 'faq-answer3-q', answer: 'faq-answer3-a' },
  ],
};
