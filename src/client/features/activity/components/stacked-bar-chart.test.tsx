import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { MailCategoryName } from '#shared/api/activity.ts'
import { mockApi } from '#client/test/fetch-mock.ts'
import { renderPage } from '#client/test/render.tsx'
import { CATEGORY_COLOR } from '../lib/categories.ts'
import { niceScale } from '../lib/chart-scale.ts'
import { ActivityChartCard } from './activity-chart-card.tsx'
import StackedBarChart, { type ChartDay } from './stacked-bar-chart.tsx'

const ZERO: Record<MailCategoryName, number> = { genuine: 0, informational: 0, promotional: 0, transactional: 0, unwanted: 0 }

/** 30 UTC days ending 2025-09-30; day 28 (29 Sep) and day 29 (30 Sep) carry mail, the rest is empty. */
function statsPayload(): { days: ChartDay[] } {
  const days = Array.from({ length: 30 }, (_, index) => {
    const date = new Date(Date.UTC(2025, 8, 1 + index)).toISOString().slice(0, 10)
    return { date, counts: { ...ZERO }, filed: 0 }
  })
  days[28] = { date: '2025-09-29', counts: { ...ZERO, genuine: 4, promotional: 2, unwanted: 3 }, filed: 3 }
  days[29] = { date: '2025-09-30', counts: { ...ZERO, genuine: 6, informational: 1, transactional: 2, unwanted: 1 }, filed: 1 }
  return { days }
}

const bars = (container: HTMLElement) => Array.from(container.querySelectorAll<SVGRectElement>('rect[data-category]'))

describe('niceScale', () => {
  it('gives a round top and about four steps', () => {
    expect(niceScale(0)).toEqual({ top: 1, ticks: [0, 1] })
    expect(niceScale(10)).toEqual({ top: 10, ticks: [0, 5, 10] })
    expect(niceScale(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] })
    expect(niceScale(37)).toEqual({ top: 40, ticks: [0, 10, 20, 30, 40] })
  })
})

describe('StackedBarChart', () => {
  it('draws one segment per category and day with mail, stacked in the category colours', () => {
    const { container } = render(<StackedBarChart days={statsPayload().days} />)
    const segments = bars(container)
    expect(segments.map((bar) => `${bar.closest('g')?.getAttribute('data-date')} ${bar.dataset.category} ${bar.dataset.count}`)).toEqual([
      '2025-09-29 genuine 4',
      '2025-09-29 promotional 2',
      '2025-09-29 unwanted 3',
      '2025-09-30 genuine 6',
      '2025-09-30 informational 1',
      '2025-09-30 transactional 2',
      '2025-09-30 unwanted 1',
    ])
    for (const bar of segments) expect(bar.getAttribute('fill')).toBe(CATEGORY_COLOR[bar.dataset.category as MailCategoryName])

    // Heights are proportional to the counts, and each segment sits on the one below.
    const [genuine, promotional] = segments
    expect(Number(genuine!.getAttribute('height')) / Number(promotional!.getAttribute('height'))).toBeCloseTo(2)
    expect(Number(promotional!.getAttribute('y')) + Number(promotional!.getAttribute('height'))).toBeCloseTo(Number(genuine!.getAttribute('y')))
  })

  it('has a legend with every category and its 30-day total', () => {
    render(<StackedBarChart days={statsPayload().days} />)
    const legend = screen.getByRole('list', { name: 'Categories' })
    expect(within(legend).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Genuine10',
      'Informational1',
      'Promotional2',
      'Transactional2',
      'Cold outreach4',
    ])
  })

  it('is described for screen readers, with a table of every number', () => {
    render(<StackedBarChart days={statsPayload().days} />)
    expect(
      screen.getByRole('group', { name: 'Stacked bar chart of messages per day over the last 30 days: 19 in all, 4 filed away.' }),
    ).toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'Messages per day and kind' })
    expect(within(table).getAllByRole('row')).toHaveLength(31)
    const lastDay = within(table).getByRole('row', { name: /Tue,? 30 Sept? 2025/ })
    expect(within(lastDay).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['6', '1', '0', '2', '1', '10', '1'])
  })

  it('shows a day’s totals on hover and with the arrow keys', () => {
    const { container } = render(<StackedBarChart days={statsPayload().days} />)
    const lastColumn = container.querySelector('g[data-date="2025-09-30"] rect:not([data-category])') as SVGRectElement
    fireEvent.mouseEnter(lastColumn)
    const tooltip = screen.getByTestId('chart-tooltip')
    expect(tooltip).toHaveTextContent(/Tue,? 30 Sept? 2025/)
    expect(tooltip).toHaveTextContent('10 messages · 1 filed away')
    expect(tooltip).toHaveTextContent('Genuine6')

    const chart = screen.getByRole('group', { name: /Stacked bar chart/ })
    fireEvent.focus(chart)
    fireEvent.keyDown(chart, { key: 'ArrowLeft' })
    expect(screen.getByTestId('chart-tooltip')).toHaveTextContent('9 messages · 3 filed away')
    expect(screen.getByText(/^Mon,? 29 Sept? 2025, 9 messages, Genuine 4, Promotional 2, Cold outreach 3, 3 filed away$/)).toBeInTheDocument()
  })

  it('says when there was no mail', () => {
    const days = statsPayload().days.map((day) => ({ ...day, counts: { ...ZERO }, filed: 0 }))
    const { container } = render(<StackedBarChart days={days} />)
    expect(bars(container)).toHaveLength(0)
    expect(screen.getByText('No mail was decided in this period.')).toBeInTheDocument()
  })
})

describe('Mail per day card', () => {
  it('loads 30 days of stats and the chart (lazily)', async () => {
    const { calls } = mockApi({ 'GET /_api/activity/stats': { body: statsPayload() } })
    renderPage(<ActivityChartCard />)
    expect(screen.getByRole('heading', { name: 'Mail per day' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading mail statistics' })).toBeInTheDocument()
    expect(await screen.findByRole('group', { name: /19 in all, 4 filed away/ })).toBeInTheDocument()
    expect(calls.find((call) => call.path === '/_api/activity/stats')?.query).toEqual({ days: '30' })
  })

  it('shows why the stats could not be loaded', async () => {
    mockApi({ 'GET /_api/activity/stats': { status: 401, body: { error: 'Authentication required' } } })
    renderPage(<ActivityChartCard />)
    expect(await screen.findByRole('alert')).toHaveTextContent('Error loading mail statistics: Authentication required')
  })
})
