import type { Scenario } from '../../scenario-types';

/**
 * Written after the extraction was (held out then, seen and tuned on since): a Python project, pytest's own
 * output, a fix run through a different command, and a suggestion closing the turn as a question.
 */
export const pytest: Scenario = {
  name: 'pytest',
  covers: 'pytest output, `python -m pytest -q` after `pytest tests/test_cart.py`, a closing suggestion-question',
  repo: {
    'shop/__init__.py': '',
    'shop/cart.py': 'def total(items):\n    return sum(i["price"] for i in items) * 1.0\n\n\ndef total_with_tax(items, rate):\n    return total(items) + rate\n',
    'tests/test_cart.py': 'from shop.cart import total_with_tax\n\n\ndef test_tax_is_a_rate():\n    assert total_with_tax([{"price": 10}], 0.2) == 12.0\n',
  },
  sessions: [
    {
      name: 'main',
      steps: [
        {
          prompt: 'total_with_tax in shop/cart.py adds the rate instead of applying it. Can you fix that?',
          actions: [
            { tool: 'Bash', command: 'python3 -m pytest tests/test_cart.py 2>&1 | tail -15; exit ${PIPESTATUS[0]}', description: 'Run the cart tests' },
            { tool: 'Read', path: 'shop/cart.py' },
            { tool: 'Edit', path: 'shop/cart.py', old: '    return total(items) + rate\n', new: '    return total(items) * (1 + rate)\n' },
            { tool: 'Bash', command: 'python3 -m pytest -q 2>&1 | tail -5', description: 'Run all tests' },
            { text: 'Fixed: total_with_tax now multiplies by (1 + rate), and the whole test suite is green.\n\nWould you like me to add a test for an empty cart as well?' },
          ],
        },
      ],
    },
  ],
  probe: { resets: ['clear', 'compact'], prompt: 'Where were we?' },
  facts: [
    { id: 'objective: the tax calculation', in: ['objective'], pattern: 'total_with_tax|tax' },
    { id: 'waiting on the empty-cart question', in: ['waiting_on'], pattern: 'empty cart' },
    { id: 'the pytest failure resolved', in: ['errors'], pattern: 'resolved' },
    { id: 'the failure named by its test', in: ['errors'], pattern: 'test_cart|test_tax_is_a_rate|assert' },
    { id: 'cart.py modified', in: ['files'], pattern: '^"?modified: shop/cart\\.py' },
  ],
  antiFacts: [{ id: 'the fixed pytest failure shown unresolved', in: ['errors'], pattern: '^(?!.*resolved).*(pytest|test_cart)' }],
};
